/**
 * The form ↔ code sync rule (builder-state.ts) with a small JSON builder: a form change rewrites
 * the code; typed readable code moves the form and keeps the text as typed; unreadable code keeps
 * the form and reports where; a config that breaks the schema is not sent to the API; loads,
 * baselines and the issues shown.
 */
import type { BuilderDefinition, BuilderIssue } from '@backoffice/core/builders/common';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { builderReducer, currentIssues, initialBuilderState, isDirty, renderRequest, type BuilderAction, type BuilderState } from './builder-state.ts';
import { initI18n, loadScreenCatalogues } from '../../lib/i18n.ts';
import { fieldIssue, fieldDomId, isAtOrBelow } from './field-issue.ts';

initI18n('en');
await loadScreenCatalogues();

const schema = z.strictObject({ code: z.string().min(1), width: z.number().int().min(1), height: z.number().int().min(1) });
type Slot = z.infer<typeof schema>;

const def: BuilderDefinition<Slot> = {
  kind: 'json',
  subjects: ['none'],
  configSchema: schema,
  defaults: () => ({ code: 'home', width: 300, height: 250 }),
  render: (c) => ({
    code: JSON.stringify({ slot: c.code, size: [c.width, c.height] }, null, 2),
    language: 'json',
    filename: 'slot.json',
    mime: 'application/json',
    issues: /^[a-z-]+$/.test(c.code) ? [] : [{ severity: 'error', path: 'code', key: 'error.invalid_value', source: 'rules' }],
  }),
  parse(code) {
    try {
      const d = JSON.parse(code) as { slot?: unknown; size?: unknown[] };
      return { config: { code: d.slot, width: d.size?.[0], height: d.size?.[1] } as Slot, issues: [] };
    } catch (err) {
      return { issues: [{ severity: 'error', path: '', text: (err as Error).message, source: 'syntax', line: 1, column: 1 }] };
    }
  },
  examples: () => [],
};

const reduce = builderReducer(def);
const run = (state: BuilderState<Slot>, ...actions: BuilderAction<Slot>[]) => actions.reduce(reduce, state);

describe('builder state: form and code in sync', () => {
  it('starts from the defaults, rendered, clean', () => {
    const s = initialBuilderState(def);
    expect(s.config).toEqual({ code: 'home', width: 300, height: 250 });
    expect(s.code).toBe(def.render(s.config).code);
    expect(isDirty(s)).toBe(false);
    expect(renderRequest(s)).toEqual({ config: s.config });
  });

  it('a form change re-renders the code and is an unsaved change', () => {
    const s = run(initialBuilderState(def), { type: 'form', config: { code: 'home', width: 728, height: 90 } });
    expect(s.code).toContain('728');
    expect(s.origin).toBe('form');
    expect(isDirty(s)).toBe(true);
    expect(renderRequest(s)).toEqual({ config: { code: 'home', width: 728, height: 90 } });
  });

  it('readable typed code moves the form and keeps the text exactly as typed', () => {
    const typed = '{"slot":"top","size":[728,90]}   ';
    const s = run(initialBuilderState(def), { type: 'code', code: typed });
    expect(s.config).toEqual({ code: 'top', width: 728, height: 90 });
    expect(s.code).toBe(typed);
    expect(s.unreadable).toBe(false);
    // The API checks the code as typed, so its lines are the editor's; the configuration it was
    // read into goes along for what code does not carry (the JSON builder's schema).
    expect(renderRequest(s)).toEqual({ code: typed, config: s.config });
  });

  it('unreadable code keeps the form, reports the syntax issue, and sends nothing to check', () => {
    const before = run(initialBuilderState(def), { type: 'form', config: { code: 'mid', width: 160, height: 600 } });
    const s = run(before, { type: 'code', code: '{"slot": "mid", size: }' });
    expect(s.config).toEqual(before.config);
    expect(s.unreadable).toBe(true);
    expect(s.code).toBe('{"slot": "mid", size: }');
    expect(currentIssues(s)).toEqual([expect.objectContaining({ source: 'syntax', line: 1 })]);
    expect(renderRequest(s)).toBeNull();
    // Fixing the text brings the form along again.
    const fixed = run(s, { type: 'code', code: '{"slot": "mid", "size": [120, 600]}' });
    expect(fixed.config.width).toBe(120);
    expect(fixed.unreadable).toBe(false);
  });

  it('readable code whose configuration breaks the schema leaves the form as it was, with the schema’s issues at their paths', () => {
    const s = run(initialBuilderState(def), { type: 'code', code: '{"slot": "x", "size": [0, 50]}' });
    expect(s.unreadable).toBe(true);
    expect(s.config).toEqual(def.defaults());
    expect(currentIssues(s)).toEqual([{ severity: 'error', path: 'width', key: 'error.invalid_value', source: 'rules' }]);
  });

  it('a form value that breaks the schema is shown at its field and not sent to the API', () => {
    const s = run(initialBuilderState(def), { type: 'form', config: { code: 'home', width: 0, height: 250 } });
    expect(currentIssues(s)).toContainEqual({ severity: 'error', path: 'width', key: 'error.invalid_value', source: 'rules' });
    expect(renderRequest(s)).toBeNull();
  });

  it('shows the rules’ issues and the standard’s, once each', () => {
    const s = run(initialBuilderState(def), { type: 'form', config: { code: 'Home Page', width: 300, height: 250 } });
    const standard: BuilderIssue[] = [{ severity: 'warning', path: '/size', text: 'not an IAB size', source: 'schema', line: 3 }];
    const shown = currentIssues(s, [...standard, ...standard]);
    expect(shown.map((i) => i.source)).toEqual(['rules', 'schema']);
  });

  it('a load replaces both and sets the baseline; saving makes the current configuration clean', () => {
    const loaded = run(initialBuilderState(def), { type: 'code', code: '{' }, { type: 'load', config: { code: 'side', width: 300, height: 600 }, clean: true });
    expect(loaded.unreadable).toBe(false);
    expect(loaded.code).toBe(def.render(loaded.config).code);
    expect(isDirty(loaded)).toBe(false);
    const edited = run(loaded, { type: 'form', config: { ...loaded.config, height: 250 } });
    expect(isDirty(edited)).toBe(true);
    expect(isDirty(run(edited, { type: 'saved' }))).toBe(false);
    // A builder's extra action (not clean) keeps the baseline.
    expect(isDirty(run(loaded, { type: 'load', config: { code: 'x', width: 1, height: 1 }, clean: false }))).toBe(true);
  });
});

describe('field issues', () => {
  it('gives a field the first error at its path or below, translated, else its first warning', () => {
    const issues: BuilderIssue[] = [
      { severity: 'warning', path: 'media.0.url', text: 'http, not https', source: 'rules' },
      { severity: 'error', path: 'media.0.url.host', key: 'error.required', source: 'rules' },
      { severity: 'error', path: 'media.10', key: 'error.invalid_value', source: 'rules' },
    ];
    expect(fieldIssue(issues, 'media.0.url')).toEqual({ validateStatus: 'error', help: 'This field is required' });
    expect(fieldIssue(issues, 'media.1')).toEqual({});
    expect(fieldIssue([issues[0]!], 'media')).toEqual({ validateStatus: 'warning', help: 'http, not https' });
    expect(isAtOrBelow('media.10', 'media.1')).toBe(false);
    expect(fieldDomId('media.0.url')).toBe('builder-field-media-0-url');
  });
});
