/**
 * Issues at form fields, for every builder's form: `fieldIssue` gives an antd Form.Item its status
 * and translated help; `issueText` is one issue's message in the UI language; `fieldDomId` is the
 * id a form gives the input of a configuration path, so the issues list can take a person to it.
 */
import type { BuilderIssue } from '@backoffice/core/builders/common';
import { i18n } from '../../lib/i18n.ts';

/** An issue's message: its i18n key translated with its params, else the validator's text. */
export function issueText(issue: BuilderIssue): string {
  if (issue.key && i18n.exists(issue.key)) return i18n.t(issue.key, issue.params ?? {});
  return issue.text ?? issue.key ?? '';
}

/** Is `path` the field's own path or below it (`media.0.url` is below `media` and `media.0`)? */
export function isAtOrBelow(issuePath: string, path: string): boolean {
  if (path === '') return issuePath === '';
  return issuePath === path || issuePath.startsWith(`${path}.`);
}

/**
 * What an antd Form.Item shows for the configuration path `path`: the first error at it or below
 * (else the first warning), translated. `{}` when there is none, so it can be spread:
 * `<Form.Item label=… {...fieldIssue(issues, 'media.0.url')}>`.
 */
export function fieldIssue(issues: readonly BuilderIssue[], path: string): { validateStatus?: 'error' | 'warning'; help?: string } {
  const here = issues.filter((i) => isAtOrBelow(i.path, path));
  const first = here.find((i) => i.severity === 'error') ?? here.find((i) => i.severity === 'warning');
  if (!first) return {};
  return { validateStatus: first.severity, help: issueText(first) };
}

/**
 * The DOM id of the input for a configuration path (`media.0.url` → `builder-field-media-0-url`).
 * Give it to the input (`<Input id={fieldDomId('media.0.url')} />`): clicking the issue focuses it.
 */
export function fieldDomId(path: string): string {
  return `builder-field-${path.replace(/[^A-Za-z0-9_-]+/g, '-')}`;
}

/**
 * The input of a configuration path in the page, or of its nearest parent that has one: by
 * `fieldDomId`, by antd Form's own ids (`media_0_url`), or by a `data-field-path` attribute.
 */
export function findFieldElement(root: ParentNode, path: string): HTMLElement | null {
  const parts = path.split('.').filter((p) => p !== '');
  for (let n = parts.length; n > 0; n--) {
    const p = parts.slice(0, n).join('.');
    const byId = root.querySelector<HTMLElement>(`#${CSS.escape(fieldDomId(p))}, #${CSS.escape(parts.slice(0, n).join('_'))}`);
    if (byId) return byId;
    const byAttr = root.querySelector<HTMLElement>(`[data-field-path="${CSS.escape(p)}"]`);
    if (byAttr) return byAttr;
  }
  return null;
}
