/**
 * Price floors through the HTTP API: rules added and changed as versions (duplicate keys, an
 * unknown publisher, a negative CPM refused with translated field errors), the tester (the most
 * specific rule wins, runners-up, the partner's default floor when nothing matches), versions
 * (compare two, restore one as a new version, two saves at once get consecutive numbers), the
 * CSV round trip (export, edit, preview, apply; each bad-row kind with its line; a file with
 * errors applies nothing; a preview made stale by another save is refused) and the ACL.
 */
import { translate } from '@backoffice/core/i18n/catalogues';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { demandPartners, publishers } from '../src/db/schema-reports.ts';
import { dbOf, userWithAcl } from './firewall-fixtures.ts';
import { body, createTestApp, type TestApp } from './helpers.ts';

interface Rule {
  id: number;
  keys: Record<string, string>;
  cpm: string;
  currency: string;
  type: string;
  specificity: number;
  publisher_name: string | null;
}
interface Written {
  version: number;
  added: number;
  changed: number;
  removed: number;
  rule_count: number;
}
interface Preview {
  base_version: number;
  delimiter: string;
  rows: number;
  error_count: number;
  errors: { line: number; field: string | null; key: string; value: string; first_line?: number }[];
  file_error: { key: string } | null;
  diff: { added: number; changed: number; removed: number; unchanged: number } | null;
  lists: {
    changed: { before: { cpm: string }; after: Rule; fields: string[] }[];
    added: Rule[];
    removed: Rule[];
  } | null;
}

describe('floors', () => {
  let t: TestApp;
  let head: Record<string, string>;
  let reader: Record<string, string>;
  let pub: number;
  let partner: number;

  beforeAll(async () => {
    t = await createTestApp();
    const db = dbOf(t.app);
    head = (await userWithAcl(t.app, 'yield.manager@adtech.example', { '/v1/floors': ['read', 'write'] }))
      .headers;
    reader = (await userWithAcl(t.app, 'floors.reader@adtech.example', { '/v1/floors': ['read'] })).headers;
    const [p] = await db
      .insert(publishers)
      .values({ name: 'Floors Test Media', sellerId: 'floors-test-1' })
      .returning({ id: publishers.id });
    pub = p!.id;
    const [d] = await db
      .insert(demandPartners)
      .values({
        name: 'Floors Test DSP',
        endpointUrl: 'https://floors-test.example/rtb',
        defaultFloor: '0.35',
        floorCurrency: 'EUR',
      })
      .returning({ id: demandPartners.id });
    partner = d!.id;
  });
  afterAll(async () => t?.close());

  const post = (url: string, payload: object, headers = head) =>
    t.app.inject({ method: 'POST', url, payload, headers });
  const get = (url: string, headers = head) => t.app.inject({ method: 'GET', url, headers });
  const rule = (keys: Record<string, string>, cpm: string, extra: Record<string, unknown> = {}) => ({
    keys,
    cpm,
    currency: 'USD',
    type: 'hard',
    ...extra,
  });
  const current = async () =>
    body<{ items: Rule[]; total: number; current_version: number }>(
      await get('/v1/floors/rules?page_size=200'),
    ).data;

  it('adds rules as versions; refuses the same keys twice, an unknown publisher and a negative CPM, translated', async () => {
    const a = await post(
      '/v1/floors/rules',
      rule({ publisher: String(pub) }, '0.50', { comment: 'Publisher floor' }),
    );
    expect(a.statusCode).toBe(201);
    expect(body<Written>(a).data).toMatchObject({ version: 1, added: 1, rule_count: 1 });
    const b = await post(
      '/v1/floors/rules',
      rule({ publisher: String(pub), size: '300x250', country: 'es' }, '1.2'),
    );
    expect(body<Written>(b).data).toMatchObject({ version: 2, rule_count: 2 });

    // Same keys in another case and with spaces: the same rule.
    const dup = await post(
      '/v1/floors/rules',
      rule({ publisher: ` ${pub} `, size: '300X250', country: 'ES' }, '2'),
    );
    expect(dup.statusCode).toBe(400);
    expect(body(dup).message).toBe('floors.error.duplicate_keys');

    const unknown = await post('/v1/floors/rules', rule({ publisher: '999999' }, '1'), {
      ...head,
      'accept-language': 'es',
    });
    expect(unknown.statusCode).toBe(400);
    expect(body(unknown).errors).toEqual({ 'keys.publisher': 'floors.error.unknown_publisher' });
    expect(body(unknown).text).toBe(translate('es', 'floors.error.unknown_publisher'));

    const negative = await post('/v1/floors/rules', rule({ site: 'news.example' }, '-1'));
    expect(body(negative).errors).toEqual({ cpm: 'floors.error.negative_cpm' });
    const badCurrency = await post(
      '/v1/floors/rules',
      rule({ site: 'news.example' }, '1', { currency: 'GBX' }),
    );
    expect(body(badCurrency).errors).toEqual({ currency: 'floors.error.currency' });

    const list = await current();
    expect(list.total).toBe(2);
    expect(list.current_version).toBe(2);
    // Most specific first; keys folded (country upper case).
    expect(list.items[0]).toMatchObject({
      keys: { country: 'ES', size: '300x250' },
      cpm: '1.2',
      specificity: 3,
      publisher_name: 'Floors Test Media',
    });
  });

  it('the tester: the most specific rule wins, the others are runners-up; nothing matches: the partner default', async () => {
    const res = await post('/v1/floors/test', {
      publisher: String(pub),
      size: '300x250',
      country: 'ES',
      device: 'phone',
    });
    const data = body<{
      winner: { rule: Rule; keys: Record<string, string> };
      runners_up: { rule: Rule }[];
      fallback: unknown;
    }>(res).data;
    expect(data.winner.rule.cpm).toBe('1.2');
    expect(data.winner.keys).toMatchObject({
      publisher: 'exact',
      size: 'exact',
      country: 'exact',
      device: 'wildcard',
    });
    expect(data.runners_up.map((r) => r.rule.cpm)).toEqual(['0.5']);
    expect(data.fallback).toBeNull();

    const none = body<{ winner: unknown; fallback: unknown }>(
      await post('/v1/floors/test', { publisher: '424242', demand_partner: String(partner) }),
    ).data;
    expect(none.winner).toBeNull();
    expect(none.fallback).toEqual({ cpm: '0.35', currency: 'EUR' });
  });

  it('changes a rule, compares versions and restores one as a new version', async () => {
    const list = await current();
    const general = list.items.find((r) => r.specificity === 1)!;
    const put = await t.app.inject({
      method: 'PUT',
      url: `/v1/floors/rules/${general.id}`,
      headers: head,
      payload: rule(general.keys, '0.75', { comment: 'Raise' }),
    });
    expect(body<Written>(put).data).toMatchObject({ version: 3, changed: 1 });
    // The old row is history now: changing it again is a conflict.
    const stale = await t.app.inject({
      method: 'PUT',
      url: `/v1/floors/rules/${general.id}`,
      headers: head,
      payload: rule(general.keys, '0.8'),
    });
    expect(stale.statusCode).toBe(409);
    const del = await post('/v1/floors/rules/delete', {
      ids: [list.items.find((r) => r.specificity === 3)!.id],
      comment: 'Spain goes',
    });
    expect(body<Written>(del).data).toMatchObject({ version: 4, removed: 1, rule_count: 1 });

    const cmp = body<{
      added: number;
      removed: number;
      changed: number;
      lists: { changed: { before: { cpm: string }; after: Rule }[]; removed: Rule[] };
    }>(await get('/v1/floors/versions/compare?from=2&to=4')).data;
    expect(cmp).toMatchObject({ added: 0, removed: 1, changed: 1 });
    expect(cmp.lists.changed[0]).toMatchObject({ before: { cpm: '0.5' }, after: { cpm: '0.75' } });
    expect(cmp.lists.removed[0]!.keys.country).toBe('ES');

    const versions = body<{
      items: { version: number; comment: string; source: string; created_by: { name: string } }[];
    }>(await get('/v1/floors/versions')).data;
    expect(versions.items.map((v) => v.version)).toEqual([4, 3, 2, 1]);
    expect(versions.items[0]).toMatchObject({
      comment: 'Spain goes',
      source: 'delete',
      created_by: { name: 'yield.manager' },
    });

    const restore = await post('/v1/floors/versions/2/restore', {
      comment: 'Back to Monday',
      base_version: 4,
    });
    expect(body<Written>(restore).data).toMatchObject({ version: 5, added: 1, changed: 1, rule_count: 2 });
    const again = await post('/v1/floors/versions/2/restore', {});
    expect(body(again).message).toBe('floors.error.restore_same');
    const after = await current();
    expect(after.items.map((r) => r.cpm).sort()).toEqual(['0.5', '1.2']);
    // Versions read back as they were.
    const v4 = body<{ items: Rule[] }>(await get('/v1/floors/rules?version=4')).data;
    expect(v4.items.map((r) => r.cpm)).toEqual(['0.75']);
  });

  it('two saves at once get consecutive versions, and both land', async () => {
    const before = (await current()).current_version;
    const [a, b] = await Promise.all([
      post('/v1/floors/rules', rule({ site: 'a.example' }, '1')),
      post('/v1/floors/rules', rule({ site: 'b.example' }, '1')),
    ]);
    const versions = [body<Written>(a).data.version, body<Written>(b).data.version].sort();
    expect(versions).toEqual([before + 1, before + 2]);
    expect((await current()).total).toBe(4);
  });

  it('CSV round trip: export, change a CPM, preview, apply as a new version', async () => {
    const exp = await get('/v1/floors/export');
    expect(exp.headers['content-disposition']).toMatch(/floor_rules_\d{4}-\d{2}-\d{2}_\d{6}\.csv/);
    const text = exp.body.replace(/^\uFEFF/, '');
    const lines = text.trim().split('\r\n');
    expect(lines[0]).toBe(
      'publisher,publisher_name,site,ad_unit,country,device,media_type,size,demand_partner,demand_partner_name,deal,cpm,currency,type',
    );
    expect(lines).toHaveLength(5);
    const edited = text.replace(
      `${pub},Floors Test Media,*,*,ES,*,*,300x250,*,,*,1.2,USD,hard`,
      `${pub},Floors Test Media,*,*,ES,*,*,300x250,*,,*,1.45,USD,hard`,
    );
    expect(edited).not.toBe(text);
    const withNew = `${edited.replace(/\r\n[^\r\n]*b\.example[^\r\n]*/, '')}*,,c.example,*,*,*,*,*,*,,*,2,EUR,soft\r\n`;
    const prev = body<Preview>(await post('/v1/floors/import/preview', { csv: withNew })).data;
    expect(prev.error_count).toBe(0);
    expect(prev.diff).toEqual({ added: 1, changed: 1, removed: 1, unchanged: 2 });
    expect(prev.lists!.changed[0]).toMatchObject({
      before: { cpm: '1.2' },
      after: { cpm: '1.45' },
      fields: ['cpm'],
    });
    // Nothing changed yet.
    expect((await current()).current_version).toBe(prev.base_version);

    const applied = await post('/v1/floors/import/apply', {
      csv: withNew,
      base_version: prev.base_version,
      comment: 'Q4 floors',
    });
    expect(body<Written>(applied).data).toMatchObject({
      version: prev.base_version + 1,
      added: 1,
      changed: 1,
      removed: 1,
      rule_count: 4,
    });
    // The same preview again is stale.
    const stale = await post('/v1/floors/import/apply', { csv: withNew, base_version: prev.base_version });
    expect(stale.statusCode).toBe(409);
    expect(body(stale).message).toBe('floors.error.set_changed');
  });

  it('semicolon files with decimal commas are read; each bad-row kind is reported with its line, and nothing applies', async () => {
    const header =
      'publisher;site;ad_unit;country;device;media_type;size;demand_partner;deal;cpm;currency;type';
    const ok = body<Preview>(
      await post('/v1/floors/import/preview', {
        csv: `${header}\n*;x.example;*;*;*;*;*;*;*;1,25;USD;hard\n`,
      }),
    ).data;
    expect(ok.delimiter).toBe(';');
    expect(ok.diff!.added).toBe(1);

    const bad = [
      header,
      `999999;*;*;*;*;*;*;*;*;1;USD;hard`, // line 2: unknown publisher
      `*;y.example;*;*;*;*;*;*;*;1;XXX;hard`, // line 3: bad currency
      `*;z.example;*;*;*;*;*;*;*;-2;USD;hard`, // line 4: negative CPM
      `${pub};*;*;FR;*;*;*;*;*;1;USD;hard`, // line 5
      '',
      `${pub};*;*;fr;*;*;*;*;*;3;USD;soft`, // line 7: the same keys as line 5
      `*;w.example;*;*;*;*;*;${partner};*;1;USD;hard`, // fine
    ].join('\n');
    const before = (await current()).current_version;
    const res = body<Preview>(await post('/v1/floors/import/preview', { csv: bad })).data;
    expect(res.error_count).toBe(4);
    expect(res.diff).toBeNull();
    expect(res.errors.map((e) => [e.line, e.key])).toEqual([
      [2, 'floors.error.unknown_publisher'],
      [3, 'floors.error.currency'],
      [4, 'floors.error.negative_cpm'],
      [7, 'floors.error.duplicate_keys'],
    ]);
    expect(res.errors[3]!.first_line).toBe(5);
    const apply = await post('/v1/floors/import/apply', { csv: bad, base_version: before });
    expect(apply.statusCode).toBe(400);
    expect(body(apply).message).toBe('floors.import.has_errors');
    expect((await current()).current_version).toBe(before);

    const noColumns = body<Preview>(await post('/v1/floors/import/preview', { csv: 'site,cpm\nx,1\n' })).data;
    expect(noColumns.file_error).toMatchObject({ key: 'floors.import.missing_columns' });
  });

  it('reading needs read on /v1/floors, changing needs write', async () => {
    expect((await get('/v1/floors/rules', reader)).statusCode).toBe(200);
    expect((await post('/v1/floors/test', {}, reader)).statusCode).toBe(200);
    expect((await post('/v1/floors/rules', rule({ site: 'q.example' }, '1'), reader)).statusCode).toBe(403);
    expect((await post('/v1/floors/import/preview', { csv: 'x' }, reader)).statusCode).toBe(403);
    expect((await post('/v1/floors/versions/1/restore', {}, reader)).statusCode).toBe(403);
    const none = (await userWithAcl(t.app, 'no.floors@adtech.example', { '/v1/budgets': ['read'] })).headers;
    expect((await get('/v1/floors/versions', none)).statusCode).toBe(403);
  });
});
