/**
 * The contract between the shared builder screen (builder-page.tsx: code view, validation,
 * copy, download, saved versions, compare) and each builder's own parts (its form, an optional
 * preview). docs/decisions/037-builders.md.
 */
import type { BuilderDefinition, BuilderIssue, BuilderOutput, BuilderSubject } from '@backoffice/core/builders/common';
import type { ComponentType, ReactNode } from 'react';

/** The subject the screen works on (the versions belong to it), when one is chosen. */
export interface BuilderSubjectRef {
  type: BuilderSubject;
  id: number | null;
  name: string | null;
}

/** What a builder's form gets: the configuration, a setter, and the issues to show at fields. */
export interface BuilderFormProps<C> {
  value: C;
  onChange: (next: C) => void;
  /** Every current issue (rules, syntax, schema); use `fieldIssue` to show one at its field. */
  issues: BuilderIssue[];
  subject: BuilderSubjectRef | null;
}

/** What a preview gets: the configuration and its current output (null while unreadable). */
export interface BuilderPreviewProps<C> {
  config: C;
  output: BuilderOutput | null;
  issues: BuilderIssue[];
}

/** Commands a builder's extra actions may use (load a pasted document, reset). */
export interface BuilderCommands<C> {
  setConfig: (config: C) => void;
  /** Puts text in the code view as if typed (it is parsed, the form follows when it can). */
  setCode: (code: string) => void;
}

export interface BuilderPageProps<C> {
  definition: BuilderDefinition<C>;
  /** i18n key of the screen's title (the menu's, e.g. 'menu.vastbuilder'). */
  titleKey: string;
  /** i18n key of a one-line explanation under the title. */
  introKey?: string;
  Form: ComponentType<BuilderFormProps<C>>;
  /** Shown beside or under the code view (a sandboxed tag preview, a media player…). */
  Preview?: ComponentType<BuilderPreviewProps<C>>;
  /** Extra toolbar buttons (e.g. the VAST builder's "Load a VAST"). */
  extraActions?: (commands: BuilderCommands<C>) => ReactNode;
  /** data-testid prefix; the kind by default. */
  testId?: string;
  /** i18n key of the status when nothing is wrong (e.g. "Valid VAST 4.2"; gets the config's params); generic "Valid" by default. */
  validKey?: string;
  /** Params for `validKey` from the current configuration (e.g. { version: '4.2' }). */
  validParams?: (config: C) => Record<string, string | number>;
}
