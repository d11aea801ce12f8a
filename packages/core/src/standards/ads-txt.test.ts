import { describe, expect, it } from 'vitest';
import { adsTxtLinesFor, findAdsTxtLine, hasAdsTxtLine, parseAdsTxt } from './ads-txt.ts';

// A publisher's file as found in the wild: BOM, CRLF, comments, variables in mixed case, an extension, bad lines.
const FILE_LINES = [
  '\uFEFF# ads.txt for example.com', // 1
  'contact=adops@example.com', // 2
  'OWNERDOMAIN=example.com', // 3
  'MANAGERDOMAIN=manager.example', // 4
  'subdomain=news.example.com', // 5
  '', // 6
  '# Direct accounts', // 7
  'GOOGLE.com, pub-123, direct, f08c47fec0942fa0', // 8
  '  appnexus.com ,  1234 ,  Reseller   # through our partner', // 9
  'rubiconproject.com, 5678, DIRECT, 0bfd66d529a55807; extra=data, more', // 10
  '   ', // 11
  'openx.com, 537143111', // 12: 2 fields
  'pubmatic.com, 156423, PARTNER', // 13: unknown relationship
  'not a domain, 1, DIRECT', // 14
  'indexexchange.com, , RESELLER', // 15: empty account id
  'FOO=bar', // 16: unknown variable
  'MANAGERDOMAIN=agency-us.com, UK', // 17: a value may hold a comma
  'sovrn.com, 257611, RESELLER,  ', // 18: empty certification authority id
  '# sovrn.com, 1, DIRECT', // 19: a commented-out record
  '', // 20: after the final line break
];
const FILE = FILE_LINES.join('\r\n');

describe('parseAdsTxt', () => {
  it('reads records, variables and errors of a real-world shaped file, with their line numbers', () => {
    const parsed = parseAdsTxt(FILE);
    expect(parsed.records).toEqual([
      {
        line: 8,
        domain: 'google.com',
        accountId: 'pub-123',
        relationship: 'DIRECT',
        certificationAuthorityId: 'f08c47fec0942fa0',
        extension: null,
      },
      {
        line: 9,
        domain: 'appnexus.com',
        accountId: '1234',
        relationship: 'RESELLER',
        certificationAuthorityId: null,
        extension: null,
      },
      {
        line: 10,
        domain: 'rubiconproject.com',
        accountId: '5678',
        relationship: 'DIRECT',
        certificationAuthorityId: '0bfd66d529a55807',
        extension: 'extra=data, more',
      },
      {
        line: 18,
        domain: 'sovrn.com',
        accountId: '257611',
        relationship: 'RESELLER',
        certificationAuthorityId: null,
        extension: null,
      },
    ]);
    expect(parsed.variables).toEqual([
      { line: 2, name: 'CONTACT', value: 'adops@example.com' },
      { line: 3, name: 'OWNERDOMAIN', value: 'example.com' },
      { line: 4, name: 'MANAGERDOMAIN', value: 'manager.example' },
      { line: 5, name: 'SUBDOMAIN', value: 'news.example.com' },
      { line: 17, name: 'MANAGERDOMAIN', value: 'agency-us.com, UK' },
    ]);
    expect(parsed.errors).toEqual([
      { line: 12, text: 'openx.com, 537143111', reason: 'too_few_fields' },
      { line: 13, text: 'pubmatic.com, 156423, PARTNER', reason: 'bad_relationship' },
      { line: 14, text: 'not a domain, 1, DIRECT', reason: 'bad_domain' },
      { line: 15, text: 'indexexchange.com, , RESELLER', reason: 'empty_account_id' },
      { line: 16, text: 'FOO=bar', reason: 'unknown_variable' },
    ]);
  });

  it('reads LF and CRLF files alike, and ignores the BOM', () => {
    expect(parseAdsTxt(FILE_LINES.join('\n'))).toEqual(parseAdsTxt(FILE));
    const withBom = parseAdsTxt('\uFEFFgoogle.com, pub-1, DIRECT\r\nCONTACT=a@b.example\r\n');
    expect(withBom.errors).toEqual([]);
    expect(withBom.records.map((r) => [r.line, r.domain])).toEqual([[1, 'google.com']]);
    expect(withBom.variables).toEqual([{ line: 2, name: 'CONTACT', value: 'a@b.example' }]);
  });

  it('starts a comment at any #, even inside a field or a value', () => {
    const parsed = parseAdsTxt(
      [
        'CONTACT=https://example.com/ads#contact',
        'google.com, pub-1 # , DIRECT',
        'a.example, 1, DIRECT#x',
      ].join('\n'),
    );
    expect(parsed.variables).toEqual([{ line: 1, name: 'CONTACT', value: 'https://example.com/ads' }]);
    expect(parsed.errors).toEqual([
      { line: 2, text: 'google.com, pub-1 # , DIRECT', reason: 'too_few_fields' },
    ]);
    expect(parsed.records.map((r) => [r.line, r.accountId, r.relationship])).toEqual([[3, '1', 'DIRECT']]);
  });

  it('reads every variable of ads.txt 1.1 whatever the case of its name, and keeps the account id as written', () => {
    const parsed = parseAdsTxt(
      [
        'InventoryPartnerDomain = partner.example',
        'ownerdomain=Example.com',
        'Google.COM, Pub-ABC, RESELLER',
        'google.com,pub-abc,reseller',
      ].join('\n'),
    );
    expect(parsed.variables).toEqual([
      { line: 1, name: 'INVENTORYPARTNERDOMAIN', value: 'partner.example' },
      { line: 2, name: 'OWNERDOMAIN', value: 'Example.com' },
    ]);
    expect(parsed.records.map((r) => [r.domain, r.accountId, r.relationship])).toEqual([
      ['google.com', 'Pub-ABC', 'RESELLER'],
      ['google.com', 'pub-abc', 'RESELLER'],
    ]);
  });

  it('keeps 4 fields and ignores the ones after, and an empty extension is null', () => {
    const parsed = parseAdsTxt('a.example, 1, DIRECT, cert, extra, more\nb.example, 2, RESELLER ;  ');
    expect(parsed.errors).toEqual([]);
    expect(parsed.records.map((r) => [r.certificationAuthorityId, r.extension])).toEqual([
      ['cert', null],
      [null, null],
    ]);
  });

  it('checks the domain is a hostname: labels of letters, digits and hyphens, at least one dot', () => {
    const good = ['google.com', 'ad-system.co.uk', 'xn--80ak6aa92e.com', '33across.com', 'a.b.c.example'];
    const bad = [
      'localhost',
      '-bad.com',
      'bad-.com',
      'exa_mple.com',
      'example.com.',
      'http://example.com',
      '1.2.3.4',
      'a..com',
    ];
    const parsed = parseAdsTxt([...good, ...bad].map((domain) => `${domain}, 1, DIRECT`).join('\n'));
    expect(parsed.records.map((r) => r.domain)).toEqual(good);
    expect(parsed.errors.map((e) => [e.line, e.reason])).toEqual(
      bad.map((_, i) => [good.length + i + 1, 'bad_domain']),
    );
  });

  it('never throws: an empty file, only comments, or garbage give errors at most', () => {
    expect(parseAdsTxt('')).toEqual({ records: [], variables: [], errors: [] });
    expect(parseAdsTxt('\uFEFF# nothing here\n\n   \n')).toEqual({ records: [], variables: [], errors: [] });
    const garbage = parseAdsTxt('<html><body>Not found</body></html>\n=\n,,,\n;');
    expect(garbage.records).toEqual([]);
    expect(garbage.errors.map((e) => [e.line, e.reason])).toEqual([
      [1, 'too_few_fields'],
      [2, 'too_few_fields'],
      [3, 'bad_domain'],
      [4, 'too_few_fields'],
    ]);
  });
});

describe('hasAdsTxtLine / findAdsTxtLine', () => {
  const parsed = parseAdsTxt(FILE);

  it('matches the domain case-insensitively, the account id exactly, and the relationship', () => {
    expect(
      hasAdsTxtLine(parsed, { domain: 'google.com', accountId: 'pub-123', relationship: 'DIRECT' }),
    ).toBe(true);
    expect(
      hasAdsTxtLine(parsed, { domain: ' Google.COM ', accountId: 'pub-123', relationship: 'DIRECT' }),
    ).toBe(true);
    expect(
      hasAdsTxtLine(parsed, { domain: 'google.com', accountId: 'PUB-123', relationship: 'DIRECT' }),
    ).toBe(false);
    expect(hasAdsTxtLine(parsed, { domain: 'google.com', accountId: 'pub-12', relationship: 'DIRECT' })).toBe(
      false,
    );
    expect(
      hasAdsTxtLine(parsed, { domain: 'google.com', accountId: 'pub-123', relationship: 'RESELLER' }),
    ).toBe(false);
    // Lines in error and commented-out lines do not count.
    expect(
      hasAdsTxtLine(parsed, { domain: 'openx.com', accountId: '537143111', relationship: 'DIRECT' }),
    ).toBe(false);
    expect(hasAdsTxtLine(parsed, { domain: 'sovrn.com', accountId: '1', relationship: 'DIRECT' })).toBe(
      false,
    );
  });

  it('findAdsTxtLine returns the record (with its line) or null', () => {
    expect(
      findAdsTxtLine(parsed, { domain: 'appnexus.com', accountId: '1234', relationship: 'RESELLER' }),
    ).toEqual({
      line: 9,
      domain: 'appnexus.com',
      accountId: '1234',
      relationship: 'RESELLER',
      certificationAuthorityId: null,
      extension: null,
    });
    expect(
      findAdsTxtLine(parsed, { domain: 'appnexus.com', accountId: '1234', relationship: 'DIRECT' }),
    ).toBeNull();
  });
});

describe('adsTxtLinesFor', () => {
  it('writes the record, with the certification authority id only when there is one, then the variables', () => {
    expect(
      adsTxtLinesFor({
        domain: 'Exchange.example',
        sellerId: 'pub-42',
        relationship: 'DIRECT',
        certificationAuthorityId: 'abc123',
        ownerDomain: 'publisher.example',
        managerDomain: 'manager.example',
      }),
    ).toEqual([
      'exchange.example, pub-42, DIRECT, abc123',
      'OWNERDOMAIN=publisher.example',
      'MANAGERDOMAIN=manager.example',
    ]);
    expect(adsTxtLinesFor({ domain: 'exchange.example', sellerId: '42', relationship: 'RESELLER' })).toEqual([
      'exchange.example, 42, RESELLER',
    ]);
    expect(
      adsTxtLinesFor({
        domain: 'exchange.example',
        sellerId: '42',
        relationship: 'DIRECT',
        certificationAuthorityId: ' ',
        ownerDomain: null,
        managerDomain: '',
      }),
    ).toEqual(['exchange.example, 42, DIRECT']);
  });

  it('round trip: its lines parse back without errors and are found by hasAdsTxtLine', () => {
    const cases = [
      {
        domain: 'exchange.example',
        sellerId: 'pub-42',
        relationship: 'DIRECT' as const,
        certificationAuthorityId: 'abc123',
      },
      {
        domain: 'EXCHANGE.example',
        sellerId: 'Seller=7',
        relationship: 'RESELLER' as const,
        ownerDomain: 'Owner.example',
      },
      {
        domain: 'ads.exchange.co.uk',
        sellerId: '0001',
        relationship: 'DIRECT' as const,
        managerDomain: 'm.example',
      },
    ];
    for (const opts of cases) {
      const lines = adsTxtLinesFor(opts);
      const parsed = parseAdsTxt(lines.join('\r\n') + '\r\n');
      expect(parsed.errors, lines.join(' | ')).toEqual([]);
      expect(parsed.records).toHaveLength(1);
      expect(hasAdsTxtLine(parsed, { ...opts, accountId: opts.sellerId })).toBe(true);
      expect(parsed.variables.map((v) => v.name)).toEqual([
        ...(opts.ownerDomain ? ['OWNERDOMAIN'] : []),
        ...(opts.managerDomain ? ['MANAGERDOMAIN'] : []),
      ]);
    }
  });

  it('refuses values that would not read back', () => {
    const base = { domain: 'exchange.example', sellerId: '42', relationship: 'DIRECT' as const };
    expect(() => adsTxtLinesFor({ ...base, domain: 'not a domain' })).toThrow(/not a domain name/);
    expect(() => adsTxtLinesFor({ ...base, sellerId: ' ' })).toThrow(/seller id/);
    expect(() => adsTxtLinesFor({ ...base, sellerId: '4,2' })).toThrow(/seller id/);
    expect(() => adsTxtLinesFor({ ...base, sellerId: '42#' })).toThrow(/seller id/);
    expect(() => adsTxtLinesFor({ ...base, certificationAuthorityId: 'a;b' })).toThrow(
      /certification authority id/,
    );
    expect(() => adsTxtLinesFor({ ...base, ownerDomain: 'https://owner.example/' })).toThrow(/owner domain/);
    expect(() => adsTxtLinesFor({ ...base, relationship: 'PARTNER' as 'DIRECT' })).toThrow(/relationship/);
  });
});
