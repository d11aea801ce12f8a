/**
 * The builder screen's state, kept as a pure reducer so the form and the code view stay in sync
 * by one rule (docs/decisions/037-builders.md):
 *   - a form change re-renders the code (the builder's own `render`, the same the API runs);
 *   - typed code is parsed: readable code (that also passes the configuration's schema) moves the
 *     form and keeps the text exactly as typed (never rewritten under the cursor); unreadable code
 *     leaves the form as it was and keeps its syntax issues for the code view's markers;
 *   - loading an example, a saved version or starting over replaces both.
 * What goes to the API for the standard's check follows the last change: the configuration after
 * a form change (the code shown is its render), the typed code after an edit (so the validator's
 * lines are the editor's).
 */
import type { BuilderDefinition, BuilderIssue, BuilderOutput, BuilderRenderBody } from '@backoffice/core/builders/common';
import { issuesToErrors } from '@backoffice/core/validation-errors';

export interface BuilderState<C> {
  /** What the form shows: the last readable configuration. */
  config: C;
  /** What the code view shows. */
  code: string;
  /** The render of `config` (its code is `code` unless the code was typed). */
  output: BuilderOutput;
  /** Who changed last: the form (or a load), or the code view. */
  origin: 'form' | 'code';
  /** The parse's issues after a code edit (syntax, or the configuration's schema). */
  parseIssues: BuilderIssue[];
  /** The typed code could not be read into the form. */
  unreadable: boolean;
  /** The form's configuration against the builder's schema (what the API would refuse with 400). */
  schemaIssues: BuilderIssue[];
  /** The configuration last loaded or saved (JSON), to tell unsaved changes. */
  baseline: string;
  /** Bumped on every change: an answer for an older revision is stale. */
  revision: number;
}

export type BuilderAction<C> =
  | { type: 'form'; config: C }
  | { type: 'code'; code: string }
  /** An example, a saved version, the defaults: replaces both; `clean` makes it the baseline. */
  | { type: 'load'; config: C; clean: boolean }
  /** The current configuration was saved. */
  | { type: 'saved' };

const stable = (config: unknown) => JSON.stringify(config ?? null);

/** A render that never takes the screen down: a builder that throws reports it as an issue. */
export function safeRender<C>(def: BuilderDefinition<C>, config: C, fallbackCode = ''): BuilderOutput {
  try {
    return def.render(config);
  } catch (err) {
    const text = err instanceof Error ? err.message : String(err);
    return { code: fallbackCode, language: 'json', filename: `${def.kind}.txt`, mime: 'text/plain', issues: [{ severity: 'error', path: '', text, source: 'rules' }] };
  }
}

/** The configuration's schema problems as issues at their paths (the same keys the API answers). */
export function configSchemaIssues<C>(def: BuilderDefinition<C>, config: unknown): { config?: C; issues: BuilderIssue[] } {
  const checked = def.configSchema.safeParse(config, { reportInput: true });
  if (checked.success) return { config: checked.data, issues: [] };
  return { issues: Object.entries(issuesToErrors(checked.error.issues)).map(([path, key]) => ({ severity: 'error', path: path === '_' ? '' : path, key, source: 'rules' })) };
}

export function initialBuilderState<C>(def: BuilderDefinition<C>, config: C = def.defaults()): BuilderState<C> {
  const output = safeRender(def, config);
  return { config, code: output.code, output, origin: 'form', parseIssues: [], unreadable: false, schemaIssues: configSchemaIssues(def, config).issues, baseline: stable(config), revision: 0 };
}

function parseCode<C>(def: BuilderDefinition<C>, code: string, current: C): { config?: C; issues: BuilderIssue[] } {
  try {
    return def.parse(code, current);
  } catch (err) {
    return { issues: [{ severity: 'error', path: '', text: err instanceof Error ? err.message : String(err), source: 'syntax' }] };
  }
}

export function builderReducer<C>(def: BuilderDefinition<C>) {
  return (state: BuilderState<C>, action: BuilderAction<C>): BuilderState<C> => {
    switch (action.type) {
      case 'form': {
        const output = safeRender(def, action.config, state.code);
        return {
          ...state,
          config: action.config,
          code: output.code,
          output,
          origin: 'form',
          parseIssues: [],
          unreadable: false,
          schemaIssues: configSchemaIssues(def, action.config).issues,
          revision: state.revision + 1,
        };
      }
      case 'load': {
        const output = safeRender(def, action.config, state.code);
        return {
          config: action.config,
          code: output.code,
          output,
          origin: 'form',
          parseIssues: [],
          unreadable: false,
          schemaIssues: configSchemaIssues(def, action.config).issues,
          baseline: action.clean ? stable(action.config) : state.baseline,
          revision: state.revision + 1,
        };
      }
      case 'code': {
        if (action.code === state.code) return state;
        const parsed = parseCode(def, action.code, state.config);
        const base = { ...state, code: action.code, origin: 'code' as const, revision: state.revision + 1 };
        if (parsed.config === undefined) return { ...base, parseIssues: parsed.issues, unreadable: true };
        const checked = configSchemaIssues(def, parsed.config);
        if (checked.config === undefined) return { ...base, parseIssues: [...parsed.issues, ...checked.issues], unreadable: true };
        const output = safeRender(def, checked.config, action.code);
        return { ...base, config: checked.config, output, parseIssues: parsed.issues, unreadable: false, schemaIssues: [] };
      }
      case 'saved':
        return { ...state, baseline: stable(state.config) };
    }
  };
}

const issueKey = (i: BuilderIssue) => `${i.source}|${i.severity}|${i.path}|${i.key ?? ''}|${i.text ?? ''}|${i.line ?? ''}|${i.column ?? ''}`;

/**
 * Every issue to show now: the code's (syntax, schema) while it is unreadable; else the parse's
 * and the builder's rules', plus the standard's validator's from the API (`standard`, for this
 * revision only), without duplicates.
 */
export function currentIssues<C>(state: BuilderState<C>, standard: readonly BuilderIssue[] = []): BuilderIssue[] {
  const all = state.unreadable ? state.parseIssues : [...(state.origin === 'code' ? state.parseIssues : state.schemaIssues), ...state.output.issues, ...standard];
  const seen = new Set<string>();
  return all.filter((i) => {
    const k = issueKey(i);
    if (seen.has(k)) return false;
    seen.add(k);
    return true;
  });
}

/** What to send to POST render for the standard's check; null while the code is unreadable or the configuration breaks its schema. */
export function renderRequest<C>(state: BuilderState<C>): BuilderRenderBody | null {
  if (state.unreadable || state.schemaIssues.length > 0) return null;
  return state.origin === 'code' ? { code: state.code, config: state.config } : { config: state.config };
}

export const isDirty = <C>(state: BuilderState<C>) => stable(state.config) !== state.baseline;

export function issueCounts(issues: readonly BuilderIssue[]): { errors: number; warnings: number } {
  let errors = 0;
  let warnings = 0;
  for (const i of issues) {
    if (i.severity === 'error') errors++;
    else warnings++;
  }
  return { errors, warnings };
}
