/**
 * The builders' code view: CodeMirror 6 loaded lazily (code-editor.tsx is its own chunk, with
 * CodeMirror), a plain text area with the same text, label and behaviour while it loads. The app's
 * theme picks the editor's (one-dark in dark mode).
 */
import type { BuilderIssue, BuilderLanguage } from '@backoffice/core/builders/common';
import { lazy, Suspense, type RefObject } from 'react';
import { useSession } from '../../lib/session-store.ts';

export interface CodeViewHandle {
  /** Moves the cursor to a 1-based line (and column), scrolls it into view and focuses the editor. */
  goTo(line: number, column?: number): void;
  focus(): void;
}

export interface CodeViewProps {
  value: string;
  language: BuilderLanguage;
  /** Every edit's full text; absent or `readOnly`: the view only shows. */
  onChange?: (code: string) => void;
  /** Issues with a line are marked inline (lint diagnostics). */
  issues?: readonly BuilderIssue[];
  readOnly?: boolean;
  /** The accessible name of the text. */
  label: string;
  /** Set by CodeView from the app theme. */
  dark?: boolean;
  handleRef?: RefObject<CodeViewHandle | null>;
  minHeight?: number;
  maxHeight?: number;
  testId?: string;
  describedBy?: string;
}

const CodeEditor = lazy(() => import('./code-editor.tsx'));

function PlainCode({ value, onChange, readOnly, label, minHeight = 320, testId, describedBy }: CodeViewProps) {
  return (
    <textarea
      className="bo-builder-code__plain"
      value={value}
      readOnly={readOnly || !onChange}
      onChange={(e) => onChange?.(e.target.value)}
      aria-label={label}
      aria-describedby={describedBy}
      spellCheck={false}
      style={{ minHeight }}
      data-testid={testId}
      data-ready="false"
    />
  );
}

export function CodeView(props: CodeViewProps) {
  const dark = useSession((s) => s.theme === 'dark');
  return (
    <Suspense fallback={<PlainCode {...props} />}>
      <CodeEditor {...props} dark={props.dark ?? dark} />
    </Suspense>
  );
}
