import { welcomeEntrySchema } from '@backoffice/core/schemas/auth';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { WELCOME_RULE } from '../src/modules/staff/routes.ts';
import { avatarSvg, colourOf, initialsOf } from '../src/modules/staff/avatar.ts';
import { DEMO, awayFromWindowEdge, dbOf, expectErrorEnvelope, freshIp, rows, writeCounts } from './auth-support.ts';
import { body, createTestApp, type TestApp } from './helpers.ts';

describe('staff roster: welcome look-up and pictures', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(async () => t.close());

  const welcome = (mail: string, ip = freshIp()) =>
    t.app.inject({ url: `/v1/staff/welcome?mail=${encodeURIComponent(mail)}`, remoteAddress: ip });

  it('holds about 50 people with work mails, every demo user, and one default entry', async () => {
    const staff = await rows<{ mail: string | null; name: string; pic: string; text: string | null; is_default: boolean }>(
      dbOf(t.app),
      sql`select mail, name, pic, text, is_default from staff order by id`,
    );
    const people = staff.filter((s) => !s.is_default);
    expect(people.length).toBeGreaterThanOrEqual(45);
    expect(people.length).toBeLessThanOrEqual(55);
    expect(staff.filter((s) => s.is_default)).toHaveLength(1);
    for (const p of people) {
      expect(p.mail).toMatch(/^[a-z0-9.]+@(adtech|ssp|performance|playon)\.example$/);
      expect(p.pic).toMatch(/^\/v1\/staff\/pic\/\d+\.svg$/);
    }
    expect(new Set(people.map((p) => p.mail!.split('@')[1])).size).toBe(4);
    expect(people.some((p) => p.text !== null) && people.some((p) => p.text === null)).toBe(true);
    for (const mail of Object.values(DEMO)) expect(people.map((p) => p.mail)).toContain(mail);
  });

  it("answers one exact mail's name, picture and greeting, publicly", async () => {
    const res = await welcome(DEMO.finance);
    expect(res.statusCode).toBe(200);
    const entry = welcomeEntrySchema.strict().parse(body(res).data);
    expect(entry).toEqual({ name: 'Javier Morales', pic: expect.stringMatching(/^\/v1\/staff\/pic\/\d+\.svg$/), text: '¿Listo para el cierre de mes?' });
    // Lowercase compare, trimmed, and the primary domain for a bare name.
    for (const typed of ['FINANCE@ADTECH.EXAMPLE', ' finance@adtech.example ', 'finance', 'Finance']) {
      expect(body(await welcome(typed)).data, typed).toEqual(entry);
    }
    // Someone on another company domain, with no greeting.
    expect(body(await welcome('liam.oconnor@performance.example')).data).toEqual({
      name: "Liam O'Connor",
      pic: expect.any(String),
      text: null,
    });
  });

  it('cannot list or probe the roster: no prefixes, wildcards or partial mails', async () => {
    for (const probe of [
      'finance@adtech.exampl', 'finance@adtech', 'financ', '%', '%@adtech.example', 'f%', '_inance@adtech.example',
      '*', '.*', 'finance@adtech.example%', "' or 1=1 --", 'finance@adtech.example,admin@adtech.example', 'nobody@adtech.example',
    ]) {
      const res = await welcome(probe);
      expect(res.statusCode, probe).toBe(200);
      expect(body(res).data, probe).toBeNull();
    }
    // The default entry has no mail and is never answered.
    expect(body(await welcome('null')).data).toBeNull();
  });

  it('answers only for the company domains, without reading the roster for any other', async () => {
    // A roster entry whose mail is outside the company domains (a contractor, say) is never answered.
    await dbOf(t.app).execute(sql`insert into staff (mail, name, pic) values ('ext.person@gmail.com', 'External Person', '/x.svg')`);
    expect(body(await welcome('ext.person@gmail.com')).data).toBeNull();
    expect(body(await welcome('finance@gmail.com')).data).toBeNull();
    // The company's own are, on every company domain.
    expect(body(await welcome(DEMO.finance)).data).not.toBeNull();
  });

  it('rejects bad queries with a 400 envelope and writes nothing', async () => {
    const before = await writeCounts(dbOf(t.app));
    const ip = freshIp();
    expectErrorEnvelope(await t.app.inject({ url: '/v1/staff/welcome', remoteAddress: ip }), 400, 'error.validation', { mail: 'error.required' });
    expectErrorEnvelope(await t.app.inject({ url: '/v1/staff/welcome?mail=', remoteAddress: ip }), 400, 'error.validation', { mail: 'login.mail.required' });
    expectErrorEnvelope(await t.app.inject({ url: '/v1/staff/welcome?mail=a&mail=b', remoteAddress: ip }), 400, 'error.validation', { mail: 'error.invalid_type' });
    expectErrorEnvelope(await t.app.inject({ url: '/v1/staff/welcome?mail=a&limit=50', remoteAddress: ip }), 400, 'error.validation', { limit: 'error.unknown_field' });
    expectErrorEnvelope(await t.app.inject({ url: `/v1/staff/welcome?mail=${'a'.repeat(300)}`, remoteAddress: ip }), 400, 'error.validation', { mail: 'error.invalid_value' });
    expect(await writeCounts(dbOf(t.app))).toEqual(before);
  });

  it(`limits look-ups to ${WELCOME_RULE.max} per address in any minute (database counter), with Retry-After`, async () => {
    await awayFromWindowEdge(WELCOME_RULE.windowSec, 15_000);
    const ip = freshIp();
    for (let i = 0; i < WELCOME_RULE.max; i++) expect((await welcome(`person${i}@adtech.example`, ip)).statusCode, `look-up ${i + 1}`).toBe(200);
    const limited = await welcome(DEMO.finance, ip);
    expectErrorEnvelope(limited, 429, 'error.rate_limited');
    expect(Number(limited.headers['retry-after'])).toBeGreaterThan(0);
    // A sliding window: the look-ups of this minute still count during the next one.
    expect(Number(limited.headers['retry-after'])).toBeLessThanOrEqual(2 * WELCOME_RULE.windowSec);
    const [row] = await rows<{ count: number }>(dbOf(t.app), sql`select count from rate_limits where key = ${`welcome:ip:${ip}`}`);
    expect(row!.count).toBe(WELCOME_RULE.max + 1);
    // Another address is not limited.
    expect((await welcome(DEMO.finance)).statusCode).toBe(200);
  });

  describe('GET /v1/staff/pic/:id.svg', () => {
    it('serves a deterministic, cacheable SVG initials avatar without a token', async () => {
      const pic = body<{ pic: string }>(await welcome(DEMO.finance)).data.pic;
      const res = await t.app.inject(pic);
      expect(res.statusCode).toBe(200);
      expect(res.headers['content-type']).toBe('image/svg+xml; charset=utf-8');
      expect(res.headers['cache-control']).toBe('public, max-age=86400');
      expect(res.headers['x-content-type-options']).toBe('nosniff');
      expect(res.body).toMatch(/^<svg xmlns="http:\/\/www\.w3\.org\/2000\/svg"/);
      expect(res.body).toContain('>JM</text>');
      // Only initials: the public picture does not give the roster's names away.
      expect(res.body).not.toContain('Javier');
      expect(res.body).not.toContain('Morales');
      const again = await t.app.inject(pic);
      expect(again.body).toBe(res.body);
      const etag = res.headers.etag as string;
      expect(etag).toBeTruthy();
      const cached = await t.app.inject({ url: pic, headers: { 'if-none-match': etag } });
      expect(cached.statusCode).toBe(304);
      expect(cached.body).toBe('');
    });

    it('escapes and derives initials for any name, with a stable colour', () => {
      expect(initialsOf('María José Sánchez')).toBe('MS');
      expect(initialsOf("Liam O'Connor")).toBe('LO');
      expect(initialsOf('Min-jun Kim')).toBe('MK');
      expect(initialsOf('Óscar Medina')).toBe('ÓM');
      expect(initialsOf('Zeynep Yılmaz')).toBe('ZY');
      expect(initialsOf('cher')).toBe('C');
      expect(initialsOf('  ')).toBe('?');
      expect(avatarSvg('<script> &')).not.toContain('<script>');
      expect(avatarSvg('<b> &x')).toContain('>BX</text>');
      expect(colourOf('Javier Morales')).toBe(colourOf('Javier Morales'));
      const colours = new Set(['Ana', 'Bea', 'Carla', 'Dani', 'Eva', 'Fer', 'Gil', 'Hugo'].map(colourOf));
      expect(colours.size).toBeGreaterThan(3);
    });

    it('answers 404 for an unknown id and 400 for a malformed one', async () => {
      expectErrorEnvelope(await t.app.inject('/v1/staff/pic/999999.svg'), 404, 'error.not_found');
      expectErrorEnvelope(await t.app.inject('/v1/staff/pic/abc.svg'), 400, 'error.validation');
      expectErrorEnvelope(await t.app.inject('/v1/staff/pic/1.png'), 404, 'error.not_found');
    });
  });
});
