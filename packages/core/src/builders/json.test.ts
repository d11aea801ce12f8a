/**
 * The JSON builder's pure parts: its examples against the vendored IAB schemas and our own (with
 * Ajv, a development dependency, as the API checks them), syntax errors at their line and column,
 * JSON pointers placed on the right line, the schema kept or inferred when code is read back.
 */
import Ajv from 'ajv';
import { describe, expect, it } from 'vitest';
import { openRtbProblems } from '../standards/openrtb-auction-schema.ts';
import { pmpProblems } from '../standards/openrtb-pmp-schema.ts';
import { JSON_SCHEMA_ROOTS, OPENRTB_REQUEST_SCHEMAS, AD_UNIT_CONFIG_SCHEMA, PARTNER_CONFIG_SCHEMA } from './json-schemas.ts';
import { inferJsonSchema, jsonBuilder, locatePointer, pointerSegments, readJson, segmentsPointer, type JsonSchemaName } from './json.ts';

const ajv = new Ajv({ allErrors: true, jsonPointers: true });
for (const s of [...OPENRTB_REQUEST_SCHEMAS, PARTNER_CONFIG_SCHEMA, AD_UNIT_CONFIG_SCHEMA]) ajv.addSchema(s);
const errorsOf = (schema: JsonSchemaName, doc: unknown) => {
  const v = ajv.getSchema(String(JSON_SCHEMA_ROOTS[schema].$id))!;
  return v(doc) ? [] : (v.errors ?? []).map((e) => `${e.dataPath} ${e.message}`);
};

describe('json builder', () => {
  it('every example is valid against its schema, and the OpenRTB ones use only fields 2.6 defines', () => {
    const examples = jsonBuilder.examples();
    expect(new Set(examples.map((e) => e.config.schema)).size).toBe(5);
    for (const e of examples) expect(errorsOf(e.config.schema, e.config.document), e.name).toEqual([]);
    const request = examples.find((e) => e.config.schema === 'openrtb-2.6/BidRequest')!.config.document;
    expect(openRtbProblems('request', request)).toEqual([]);
    const imp = examples.find((e) => e.config.schema === 'openrtb-2.6/Imp')!.config.document;
    expect(openRtbProblems('request', { id: 'r', imp: [imp] })).toEqual([]);
    const pmp = examples.find((e) => e.config.schema === 'openrtb-2.6/Pmp')!.config.document as { deals: unknown[] };
    expect(pmpProblems(pmp)).toEqual([]);
    expect(pmp.deals).toHaveLength(2);
    expect(errorsOf('openrtb-2.6/Imp', jsonBuilder.defaults().document)).toEqual([]);
  });

  it('our schemas refuse what the partner and floor screens refuse', () => {
    const partner = structuredClone(jsonBuilder.examples().find((e) => e.config.schema === 'backoffice/partner-config')!.config.document) as Record<string, unknown>;
    expect(errorsOf('backoffice/partner-config', { ...partner, timeout_ms: 20 })).toEqual(['/timeout_ms should be >= 50']);
    expect(errorsOf('backoffice/partner-config', { ...partner, default_floor: 0.45 })).toEqual(['/default_floor should be string']);
    expect(errorsOf('backoffice/partner-config', { ...partner, media_types: ['banner', 'banner'] })).toEqual([
      '/media_types should NOT have duplicate items (items ## 0 and 1 are identical)',
    ]);
    expect(errorsOf('backoffice/partner-config', { ...partner, qps: 10 })).toEqual([' should NOT have additional properties']);
    const unit = jsonBuilder.examples().find((e) => e.config.schema === 'backoffice/ad-unit-config')!.config.document as Record<string, unknown>;
    expect(errorsOf('backoffice/ad-unit-config', { ...unit, floor: { cpm: '1.5', currency: 'GBP' } })).toEqual(['/floor/currency should be equal to one of the allowed values']);
  });

  it('renders the document as JSON with two spaces, and reads it back with the same schema', () => {
    const config = jsonBuilder.examples()[2]!.config;
    const out = jsonBuilder.render(config);
    expect(out.language).toBe('json');
    expect(out.filename).toBe('openrtb-pmp.json');
    expect(out.code.split('\n')[1]).toBe('  "private_auction": 1,');
    expect(jsonBuilder.parse(out.code, config)).toEqual({ config, issues: [] });
  });

  it('keeps the chosen schema when the code is read back, and infers one without it', () => {
    expect(jsonBuilder.parse('{}', { schema: 'openrtb-2.6/Pmp', document: {} }).config?.schema).toBe('openrtb-2.6/Pmp');
    expect(jsonBuilder.parse('{"id": "r1", "imp": []}').config?.schema).toBe('openrtb-2.6/BidRequest');
    expect(inferJsonSchema({ deals: [] })).toBe('openrtb-2.6/Pmp');
    expect(inferJsonSchema({ endpoint_url: 'https://x.example' })).toBe('backoffice/partner-config');
    expect(inferJsonSchema({ name: 'u', media_type: 'banner' })).toBe('backoffice/ad-unit-config');
    expect(inferJsonSchema({ id: '1', banner: {} })).toBe('openrtb-2.6/Imp');
  });

  it('reports syntax errors at their line and column, and no configuration', () => {
    const missingComma = '{\n  "id": "1"\n  "tagid": "x"\n}';
    const r = jsonBuilder.parse(missingComma);
    expect(r.config).toBeUndefined();
    expect(r.issues[0]).toMatchObject({ severity: 'error', source: 'syntax', key: 'json_builder.syntax.comma_expected', line: 3, column: 3, params: { line: 3, column: 3 } });
    expect(readJson('{"a": 1,}').issues[0]).toMatchObject({ key: 'json_builder.syntax.property_name_expected', line: 1, column: 9 });
    expect(readJson('{"a": 1} // note').issues[0]).toMatchObject({ key: 'json_builder.syntax.comment', line: 1, column: 10 });
    expect(readJson('').issues[0]).toMatchObject({ key: 'json_builder.syntax.value_expected', line: 1, column: 1 });
    expect(readJson("{'a': 1}").issues[0]).toMatchObject({ line: 1, column: 2 });
  });

  it('places a JSON pointer on its line: a property at its key, an item at its value, a missing field at its parent', () => {
    const code = jsonBuilder.render(jsonBuilder.examples()[0]!.config).code;
    const lines = code.split('\n');
    const lineOf = (pointer: string) => lines[locatePointer(code, pointer)!.line - 1]!.trim();
    expect(lineOf('/imp/0/banner/format/1/h')).toBe('"h": 90');
    expect(lineOf('/imp/0/banner/format/1')).toBe('{');
    expect(locatePointer(code, '/imp/0/banner/format/1')!.line).toBe(locatePointer(code, '/imp/0/banner/format/1/w')!.line - 1);
    expect(lineOf('/site/publisher/nope')).toBe('"publisher": {');
    expect(lineOf('/tmax')).toBe('"tmax": 450,');
    expect(lineOf('')).toBe('{');
    const slash = '{\n  "a/b": {\n    "c~d": 1\n  }\n}';
    expect(locatePointer(slash, '/a~1b/c~0d')).toEqual({ line: 3, column: 5 });
    expect(pointerSegments('/a~1b/0/c~0d')).toEqual(['a/b', 0, 'c~d']);
    expect(segmentsPointer(['a/b', 0, 'c~d'])).toBe('/a~1b/0/c~0d');
  });
});
