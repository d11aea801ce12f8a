/**
 * The JSON builder's field editor in jsdom: the schema's required and present top-level fields
 * with inputs by type, the schema error shown at its field, JSON that does not parse kept as typed
 * (nothing applied, a note shown), an emptied field removed from the document, and a document
 * that is not an object said plainly.
 */
import type { BuilderIssue } from '@backoffice/core/builders/common';
import type { JsonBuilderConfig, JsonSchemaEntry } from '@backoffice/core/builders/json';
import { fireEvent, render, screen } from '@testing-library/react';
import { beforeAll, describe, expect, it, vi } from 'vitest';
import { initI18n, loadScreenCatalogues } from '../../lib/i18n.ts';
import { JsonForm, fieldKind } from './json-form.tsx';
import { JsonSchemasContext } from './json-schemas-context.ts';

const imp: JsonSchemaEntry = {
  name: 'openrtb-2.6/Imp',
  title: 'OpenRTB 2.6 Imp',
  description: '',
  schema: {
    type: 'object',
    required: ['id'],
    properties: { id: { type: 'string' }, banner: { $ref: 'Banner.json' }, secure: { type: 'integer', enum: [0, 1] }, bidfloor: { type: 'number' }, tagid: { type: 'string' } },
  },
};

function renderForm(value: JsonBuilderConfig, issues: BuilderIssue[] = []) {
  const onChange = vi.fn();
  render(
    <JsonSchemasContext.Provider value={{ schemas: [imp], failed: false, schemaRef: { current: 'openrtb-2.6/Imp' } }}>
      <JsonForm value={value} onChange={onChange} issues={issues} subject={null} />
    </JsonSchemasContext.Provider>,
  );
  return onChange;
}

describe('JSON builder form', () => {
  // The issues' texts come from the app's i18n instance (field-issue.ts), as in the app.
  beforeAll(async () => {
    initI18n('en');
    await loadScreenCatalogues();
  });

  it('shows the required and present fields, each with the schema error at its path', () => {
    renderForm({ schema: 'openrtb-2.6/Imp', document: { id: '1', banner: { w: '300' } } }, [
      { severity: 'error', path: '/banner/w', key: 'json_builder.error.type', params: { path: '/banner/w', type: 'integer' }, source: 'schema', line: 4 },
    ]);
    expect(screen.getByRole('textbox', { name: 'id' })).toHaveProperty('value', '1');
    expect(screen.getByRole('textbox', { name: 'banner (JSON)' })).toBeTruthy();
    expect(screen.getByTestId('jsonbuilder-field-banner').textContent).toContain('/banner/w: must be of type integer.');
    expect(screen.queryByTestId('jsonbuilder-field-tagid')).toBeNull();
  });

  it('keeps JSON that does not parse as typed, and applies it once it does', () => {
    const onChange = renderForm({ schema: 'openrtb-2.6/Imp', document: { id: '1', banner: { w: 300 } } });
    const banner = screen.getByRole('textbox', { name: 'banner (JSON)' });
    fireEvent.change(banner, { target: { value: '{"w": 300, "h": ' } });
    expect(onChange).not.toHaveBeenCalled();
    expect((banner as HTMLTextAreaElement).value).toBe('{"w": 300, "h": ');
    expect(screen.getByText('This is not valid JSON yet: fix it to apply the change.')).toBeTruthy();
    fireEvent.change(banner, { target: { value: '{"w": 300, "h": 250}' } });
    expect(onChange).toHaveBeenLastCalledWith({ schema: 'openrtb-2.6/Imp', document: { id: '1', banner: { w: 300, h: 250 } } });
  });

  it('removes a field emptied, and says when the document is not an object', () => {
    const onChange = renderForm({ schema: 'openrtb-2.6/Imp', document: { id: '1', tagid: 'home' } });
    fireEvent.change(screen.getByRole('textbox', { name: 'tagid' }), { target: { value: '' } });
    expect(onChange).toHaveBeenLastCalledWith({ schema: 'openrtb-2.6/Imp', document: { id: '1' } });
    renderForm({ schema: 'openrtb-2.6/Imp', document: [1, 2] });
    expect(screen.getByText(/The document is not a JSON object/)).toBeTruthy();
  });

  it('picks the input by the schema’s type, and a JSON editor for a value of another type', () => {
    expect(fieldKind({ type: 'integer', enum: [0, 1] }, 1)).toBe('enum');
    expect(fieldKind({ type: 'string' }, 'x')).toBe('string');
    expect(fieldKind({ type: 'string' }, 5)).toBe('json');
    expect(fieldKind({ type: 'number' }, undefined)).toBe('number');
    expect(fieldKind({ $ref: 'Banner.json' }, undefined)).toBe('json');
    expect(fieldKind({ type: 'boolean' }, 'yes')).toBe('json');
  });
});
