/**
 * The CodeMirror 6 editor behind the builders' code view (loaded lazily by code-view.tsx, so
 * CodeMirror is its own chunk): highlighting by language (each grammar its own chunk too), the issues that carry a line as lint
 * diagnostics (underlined, in the gutter, on hover), the one-dark theme when the app is dark,
 * an accessible name, read-only for the compare view. Text set from outside (a form change, a
 * load) replaces the document without echoing back as an edit; typing reports every change.
 * Tab is left to the page (not bound to indentation), so keyboard users can move on.
 */
import type { BuilderIssue } from '@backoffice/core/builders/common';
import { lintGutter, setDiagnostics, type Diagnostic } from '@codemirror/lint';
import { Annotation, Compartment, EditorState, type Text } from '@codemirror/state';
import { EditorView } from '@codemirror/view';
import { basicSetup } from 'codemirror';
import { useEffect, useImperativeHandle, useRef } from 'react';
import { languageExtension } from './code-languages.ts';
import { codeTheme } from './code-theme.ts';
import { issueText } from './field-issue.ts';
import type { CodeViewProps } from './code-view.tsx';

/** Marks a change made from outside (not typed), so it is not reported back as an edit. */
const external = Annotation.define<boolean>();

/** The document offset of a 1-based line and column, clamped into the document. */
export function offsetOf(doc: Text, line: number, column = 1): number {
  const l = doc.line(Math.min(Math.max(1, Math.floor(line)), doc.lines));
  return Math.min(l.from + Math.max(0, Math.floor(column) - 1), l.to);
}

function diagnosticsOf(doc: Text, issues: readonly BuilderIssue[]): Diagnostic[] {
  const out: Diagnostic[] = [];
  for (const issue of issues) {
    if (issue.line === undefined) continue;
    const from = offsetOf(doc, issue.line, issue.column ?? 1);
    const lineEnd = doc.lineAt(from).to;
    // The rest of the word at the place (or the whole line when the place is its start).
    let start = from;
    let to = from;
    while (to < lineEnd && /[^\s<>"',:{}[\]]/.test(doc.sliceString(to, to + 1))) to++;
    if (to === from) to = issue.column === undefined ? lineEnd : Math.min(from + 1, lineEnd);
    // At the end of a line (an unclosed tag, a missing bracket): the character before it, so the
    // place is underlined rather than an easily missed point.
    if (to === start && start > doc.lineAt(from).from) start -= 1;
    out.push({ from: start, to, severity: issue.severity, message: issueText(issue), source: issue.source });
  }
  return out;
}

const baseTheme = EditorView.theme({
  '&': { fontSize: '13px', border: '1px solid var(--bo-code-border, rgba(127, 127, 127, 0.35))', borderRadius: '8px', overflow: 'hidden' },
  '&.cm-focused': { outline: '2px solid var(--bo-focus, #3451d1)', outlineOffset: '1px' },
  '.cm-scroller': { fontFamily: "ui-monospace, SFMono-Regular, Menlo, Consolas, 'Liberation Mono', monospace", lineHeight: '1.5' },
});

export default function CodeEditor({ value, language, onChange, issues = [], readOnly = false, label, dark, handleRef, minHeight = 320, maxHeight, testId, describedBy }: CodeViewProps) {
  const host = useRef<HTMLDivElement>(null);
  const view = useRef<EditorView | null>(null);
  const onChangeRef = useRef(onChange);
  useEffect(() => {
    onChangeRef.current = onChange;
  });
  const compartments = useRef({ language: new Compartment(), theme: new Compartment(), readOnly: new Compartment(), attrs: new Compartment(), size: new Compartment() });

  const attrsOf = () => {
    // tabindex: the scroller is a scrollable region, and axe (and Safari) need focusable content in it.
    const attrs: Record<string, string> = { 'aria-label': label, tabindex: '0' };
    if (describedBy) attrs['aria-describedby'] = describedBy;
    if (testId) attrs['data-testid'] = `${testId}-input`;
    return EditorView.contentAttributes.of(attrs);
  };
  const sizeOf = () => EditorView.theme({ '.cm-content, .cm-gutter': { minHeight: `${minHeight}px` }, '.cm-scroller': maxHeight ? { maxHeight: `${maxHeight}px`, overflow: 'auto' } : {} });

  // Create once; later prop changes reconfigure the compartments.
  useEffect(() => {
    const c = compartments.current;
    const state = EditorState.create({
      doc: value,
      extensions: [
        basicSetup,
        EditorView.lineWrapping,
        lintGutter(),
        baseTheme,
        c.language.of([]),
        c.theme.of(codeTheme(Boolean(dark))),
        c.readOnly.of([EditorState.readOnly.of(readOnly), EditorView.editable.of(!readOnly)]),
        c.attrs.of(attrsOf()),
        c.size.of(sizeOf()),
        EditorView.updateListener.of((u) => {
          if (!u.docChanged || u.transactions.some((tr) => tr.annotation(external))) return;
          onChangeRef.current?.(u.state.doc.toString());
        }),
      ],
    });
    const v = new EditorView({ state, parent: host.current! });
    view.current = v;
    return () => {
      v.destroy();
      view.current = null;
    };
    // eslint-disable-next-line react-hooks/exhaustive-deps -- created once; the effects below follow the props
  }, []);

  useEffect(() => {
    const v = view.current;
    if (!v || v.state.doc.toString() === value) return;
    const head = Math.min(v.state.selection.main.head, value.length);
    v.dispatch({ changes: { from: 0, to: v.state.doc.length, insert: value }, selection: { anchor: head }, annotations: external.of(true) });
  }, [value]);

  // The grammar arrives on its own (highlighting follows a moment after the text).
  useEffect(() => {
    let live = true;
    languageExtension(language).then(
      (ext) => {
        if (live) view.current?.dispatch({ effects: compartments.current.language.reconfigure(ext) });
      },
      () => undefined,
    );
    return () => {
      live = false;
    };
  }, [language]);
  useEffect(() => {
    view.current?.dispatch({ effects: compartments.current.theme.reconfigure(codeTheme(Boolean(dark))) });
  }, [dark]);
  useEffect(() => {
    view.current?.dispatch({ effects: compartments.current.readOnly.reconfigure([EditorState.readOnly.of(readOnly), EditorView.editable.of(!readOnly)]) });
  }, [readOnly]);
  useEffect(() => {
    view.current?.dispatch({ effects: [compartments.current.attrs.reconfigure(attrsOf()), compartments.current.size.reconfigure(sizeOf())] });
    // eslint-disable-next-line react-hooks/exhaustive-deps -- attrsOf / sizeOf read exactly these
  }, [label, describedBy, testId, minHeight, maxHeight]);

  // Diagnostics after the text they are about (value first, above).
  useEffect(() => {
    const v = view.current;
    if (!v) return;
    v.dispatch(setDiagnostics(v.state, diagnosticsOf(v.state.doc, issues)));
  }, [issues, value]);

  useImperativeHandle(
    handleRef,
    () => ({
      goTo(line, column) {
        const v = view.current;
        if (!v) return;
        const at = offsetOf(v.state.doc, line, column ?? 1);
        v.dispatch({ selection: { anchor: at }, effects: EditorView.scrollIntoView(at, { y: 'center' }) });
        v.focus();
      },
      focus() {
        view.current?.focus();
      },
    }),
    [],
  );

  return <div ref={host} className="bo-builder-code" data-testid={testId} data-language={language} data-ready="true" />;
}
