import Ajv from 'ajv';
import { describe, expect, it } from 'vitest';
import schema from './sellers-json.schema.json' with { type: 'json' };
import { buildSellersJson, serializeSellersJson, type SellerEntry } from './sellers-json.ts';

const ajv = new Ajv({ allErrors: true });
const validate = ajv.compile(schema);

/** Validation errors as `path message`, empty when the document is valid. */
function schemaErrors(doc: unknown): string[] {
  return validate(doc) ? [] : (validate.errors ?? []).map((e) => `${e.dataPath} ${e.message}`);
}

const SELLERS: SellerEntry[] = [
  {
    seller_id: 'pub-2',
    name: 'Example Media S.L.',
    domain: 'Example.com',
    seller_type: 'PUBLISHER',
    is_confidential: false,
  },
  {
    seller_id: 'pub-1',
    name: 'Secret Corp',
    domain: 'secret.example',
    seller_type: 'PUBLISHER',
    is_confidential: true,
  },
  {
    seller_id: 'int-9',
    name: 'Resale Network Ltd',
    domain: null,
    seller_type: 'INTERMEDIARY',
    is_confidential: false,
  },
  {
    seller_id: 'both-3',
    name: 'Group Media',
    domain: 'group.example',
    seller_type: 'BOTH',
    is_confidential: false,
    is_passthrough: true,
    comment: '  Sites and partners ',
  },
];

describe('buildSellersJson', () => {
  it('builds a sellers.json 1.0 document that the schema accepts', () => {
    const doc = buildSellersJson({
      contactEmail: 'adops@exchange.example',
      contactAddress: 'Calle Mayor 1, 28013 Madrid, Spain',
      identifiers: [{ name: 'TAG-ID', value: '28cb65e5bbc0bd5f' }],
      sellers: SELLERS,
    });
    expect(doc).toEqual({
      contact_email: 'adops@exchange.example',
      contact_address: 'Calle Mayor 1, 28013 Madrid, Spain',
      version: '1.0',
      identifiers: [{ name: 'TAG-ID', value: '28cb65e5bbc0bd5f' }],
      sellers: [
        {
          seller_id: 'both-3',
          is_confidential: 0,
          seller_type: 'BOTH',
          is_passthrough: 1,
          name: 'Group Media',
          domain: 'group.example',
          comment: 'Sites and partners',
        },
        { seller_id: 'int-9', is_confidential: 0, seller_type: 'INTERMEDIARY', name: 'Resale Network Ltd' },
        { seller_id: 'pub-1', is_confidential: 1, seller_type: 'PUBLISHER' },
        {
          seller_id: 'pub-2',
          is_confidential: 0,
          seller_type: 'PUBLISHER',
          name: 'Example Media S.L.',
          domain: 'example.com',
        },
      ],
    });
    expect(schemaErrors(doc)).toEqual([]);
    expect(Object.keys(doc)).toEqual([
      'contact_email',
      'contact_address',
      'version',
      'identifiers',
      'sellers',
    ]);
  });

  it('omits name and domain of confidential sellers, writing is_confidential as 0 or 1', () => {
    const doc = buildSellersJson({
      contactEmail: 'a@exchange.example',
      sellers: [
        {
          seller_id: 'c1',
          name: 'Hidden',
          domain: 'hidden.example',
          seller_type: 'BOTH',
          is_confidential: true,
        },
        { seller_id: 'c2', name: null, domain: null, seller_type: 'INTERMEDIARY', is_confidential: true },
      ],
    });
    expect(doc.sellers).toEqual([
      { seller_id: 'c1', is_confidential: 1, seller_type: 'BOTH' },
      { seller_id: 'c2', is_confidential: 1, seller_type: 'INTERMEDIARY' },
    ]);
    expect(serializeSellersJson(doc)).not.toMatch(/Hidden|hidden\.example/);
    expect(schemaErrors(doc)).toEqual([]);
  });

  it('throws on a duplicate seller_id instead of listing the seller twice', () => {
    const seller: SellerEntry = {
      seller_id: '7',
      name: 'A',
      domain: 'a.example',
      seller_type: 'PUBLISHER',
      is_confidential: false,
    };
    expect(() =>
      buildSellersJson({ contactEmail: 'a@b.example', sellers: [seller, { ...seller, name: 'B' }] }),
    ).toThrow('sellers.json: duplicate seller_id "7"');
    expect(() =>
      buildSellersJson({ contactEmail: 'a@b.example', sellers: [seller, { ...seller, seller_id: ' 7 ' }] }),
    ).toThrow(/duplicate seller_id "7"/);
    expect(() =>
      buildSellersJson({ contactEmail: 'a@b.example', sellers: [{ ...seller, seller_id: '  ' }] }),
    ).toThrow(/empty seller_id/);
  });

  it('accepts an INTERMEDIARY without domain, but needs a name, and a domain for PUBLISHER and BOTH', () => {
    const intermediary: SellerEntry = {
      seller_id: 'i',
      name: 'Net',
      domain: null,
      seller_type: 'INTERMEDIARY',
      is_confidential: false,
    };
    const doc = buildSellersJson({
      contactEmail: 'a@b.example',
      sellers: [intermediary, { ...intermediary, seller_id: 'j', domain: 'Net.example' }],
    });
    expect(doc.sellers).toEqual([
      { seller_id: 'i', is_confidential: 0, seller_type: 'INTERMEDIARY', name: 'Net' },
      { seller_id: 'j', is_confidential: 0, seller_type: 'INTERMEDIARY', name: 'Net', domain: 'net.example' },
    ]);
    expect(schemaErrors(doc)).toEqual([]);

    const build = (entry: Partial<SellerEntry>) =>
      buildSellersJson({ contactEmail: 'a@b.example', sellers: [{ ...intermediary, ...entry }] });
    expect(() => build({ name: ' ' })).toThrow('sellers.json: non-confidential seller "i" has no name');
    expect(() => build({ seller_type: 'PUBLISHER' })).toThrow(
      'sellers.json: non-confidential PUBLISHER seller "i" has no domain',
    );
    expect(() => build({ seller_type: 'BOTH', domain: '' })).toThrow(/BOTH seller "i" has no domain/);
    expect(() => build({ seller_type: 'publisher' as 'PUBLISHER', domain: 'a.example' })).toThrow(
      /unknown seller_type "publisher"/,
    );
    expect(() => buildSellersJson({ contactEmail: ' ', sellers: [] })).toThrow(/contact email/);
    expect(() =>
      buildSellersJson({
        contactEmail: 'a@b.example',
        identifiers: [{ name: 'TAG-ID', value: '' }],
        sellers: [],
      }),
    ).toThrow(/identifier/);
  });

  it('writes is_passthrough, comment, contact_address and identifiers only when given', () => {
    const doc = buildSellersJson({
      contactEmail: ' a@b.example ',
      contactAddress: '',
      identifiers: [],
      sellers: [
        {
          seller_id: 'a',
          name: 'A',
          domain: 'a.example',
          seller_type: 'PUBLISHER',
          is_confidential: false,
          comment: ' ',
        },
        {
          seller_id: 'b',
          name: 'B',
          domain: null,
          seller_type: 'INTERMEDIARY',
          is_confidential: false,
          is_passthrough: false,
          comment: null,
        },
      ],
    });
    expect(doc).toEqual({
      contact_email: 'a@b.example',
      version: '1.0',
      sellers: [
        { seller_id: 'a', is_confidential: 0, seller_type: 'PUBLISHER', name: 'A', domain: 'a.example' },
        { seller_id: 'b', is_confidential: 0, seller_type: 'INTERMEDIARY', is_passthrough: 0, name: 'B' },
      ],
    });
    expect(schemaErrors(doc)).toEqual([]);
  });

  it('is deterministic: sellers sorted by seller_id (code units), whatever the input order', () => {
    const ids = ['b', '10', 'B', '9', 'a', '1'];
    const entries = ids.map<SellerEntry>((id) => ({
      seller_id: id,
      name: null,
      domain: null,
      seller_type: 'PUBLISHER',
      is_confidential: true,
    }));
    const forward = serializeSellersJson(buildSellersJson({ contactEmail: 'a@b.example', sellers: entries }));
    const backward = serializeSellersJson(
      buildSellersJson({ contactEmail: 'a@b.example', sellers: [...entries].reverse() }),
    );
    expect(backward).toBe(forward);
    expect(
      (JSON.parse(forward) as { sellers: { seller_id: string }[] }).sellers.map((s) => s.seller_id),
    ).toEqual(['1', '10', '9', 'B', 'a', 'b']);
  });
});

describe('serializeSellersJson', () => {
  it('writes compact JSON that reads back as the same document', () => {
    const doc = buildSellersJson({ contactEmail: 'a@b.example', sellers: SELLERS });
    const text = serializeSellersJson(doc);
    expect(text).not.toMatch(/\n|": | ,/);
    expect(
      text.startsWith('{"contact_email":"a@b.example","version":"1.0","sellers":[{"seller_id":"both-3"'),
    ).toBe(true);
    expect(JSON.parse(text)).toEqual(doc);
  });
});

describe('sellers-json.schema.json', () => {
  const valid = {
    version: '1.0',
    sellers: [
      { seller_id: '1', seller_type: 'PUBLISHER', is_confidential: 0, name: 'A', domain: 'a.example' },
    ],
  };
  const withSeller = (seller: Record<string, unknown>) => ({ ...valid, sellers: [seller] });

  it('is a valid draft-07 schema and accepts a minimal hand-written document, extensions included', () => {
    expect(ajv.validateSchema(schema)).toBe(true);
    expect(schemaErrors(valid)).toEqual([]);
    expect(schemaErrors({ ...valid, contact_email: 'a@b.example', ext: { x: 1 } })).toEqual([]);
    expect(schemaErrors(withSeller({ seller_id: '1', seller_type: 'BOTH', is_confidential: 1 }))).toEqual([]);
    expect(
      schemaErrors(withSeller({ seller_id: '1', seller_type: 'INTERMEDIARY', name: 'A', ext: { y: 2 } })),
    ).toEqual([]);
  });

  it('rejects documents that break the spec, for the expected reason', () => {
    const seller = (fields: Record<string, unknown>) => withSeller({ seller_id: '1', ...fields });
    // [what, document, an error it must report (dataPath and message)]
    const invalid: [string, unknown, string][] = [
      [
        'no seller_type',
        seller({ is_confidential: 1 }),
        ".sellers[0] should have required property 'seller_type'",
      ],
      [
        'lower-case seller_type',
        seller({ seller_type: 'publisher', is_confidential: 1 }),
        '.sellers[0].seller_type should be equal to one of the allowed values',
      ],
      [
        'non-confidential PUBLISHER without domain',
        seller({ seller_type: 'PUBLISHER', is_confidential: 0, name: 'A' }),
        ".sellers[0] should have required property 'domain'",
      ],
      [
        'PUBLISHER without is_confidential (0 by default) nor name',
        seller({ seller_type: 'PUBLISHER', domain: 'a.example' }),
        ".sellers[0] should have required property 'name'",
      ],
      [
        'non-confidential BOTH without domain',
        seller({ seller_type: 'BOTH', name: 'A' }),
        ".sellers[0] should have required property 'domain'",
      ],
      [
        'non-confidential INTERMEDIARY without name',
        seller({ seller_type: 'INTERMEDIARY', is_confidential: 0 }),
        ".sellers[0] should have required property 'name'",
      ],
      [
        'no seller_id',
        withSeller({ seller_type: 'INTERMEDIARY', is_confidential: 1 }),
        ".sellers[0] should have required property 'seller_id'",
      ],
      [
        'numeric seller_id',
        seller({ seller_id: 1, seller_type: 'INTERMEDIARY', is_confidential: 1 }),
        '.sellers[0].seller_id should be string',
      ],
      [
        'boolean is_confidential',
        seller({ seller_type: 'BOTH', is_confidential: true }),
        '.sellers[0].is_confidential should be integer',
      ],
      [
        'is_confidential 2',
        seller({ seller_type: 'BOTH', is_confidential: 2 }),
        '.sellers[0].is_confidential should be equal to one of the allowed values',
      ],
      [
        'is_passthrough "1"',
        seller({ seller_type: 'BOTH', is_confidential: 1, is_passthrough: '1' }),
        '.sellers[0].is_passthrough should be integer',
      ],
      ['no version', { sellers: [] }, " should have required property 'version'"],
      ['numeric version', { version: 1, sellers: [] }, '.version should be string'],
      ['no sellers', { version: '1.0' }, " should have required property 'sellers'"],
      [
        'identifier without value',
        { ...valid, identifiers: [{ name: 'TAG-ID' }] },
        ".identifiers[0] should have required property 'value'",
      ],
      [
        'contact_email not an email',
        { ...valid, contact_email: 'nobody' },
        '.contact_email should match format "email"',
      ],
    ];
    for (const [what, doc, error] of invalid) expect(schemaErrors(doc), what).toContain(error);
  });
});
