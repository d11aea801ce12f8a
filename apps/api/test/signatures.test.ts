/**
 * Signatures (`/v1/signatures`) through the HTTP API: a person's own signature (prefilled from the
 * user record, saved with read only, E.164 phones, optimistic concurrency, a replay answered, audit),
 * the ACL (no permission: 403; read: one's own only, no templates, no one else's; write: templates
 * and other people's signatures), the company templates (first is the default, the flag moves, the
 * default cannot go, names unique, colours checked for light and dark, the logo read by its bytes
 * and served publicly), the rendered HTML (escaping, the rules of checkSignatureHtml, the render
 * route gives what the saved signature gives) and bad input.
 */
import { checkSignatureHtml, type MySignatureAnswer, type PersonSignature, type SignatureDetail, type SignaturePerson, type SignatureRender, type SignatureTemplate } from '@backoffice/core/signatures';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { query } from '../src/reports-data/sql.ts';
import { userWithAcl } from './firewall-fixtures.ts';
import { body, createTestApp, signIn, type TestApp } from './helpers.ts';

let t: TestApp;
let admin: Record<string, string>;
let reader: { id: number; headers: Record<string, string> };
let writer: { id: number; headers: Record<string, string> };
let none: Record<string, string>;
const db = () => t.app.ctx.database;

const templateBody = (over: Record<string, unknown> = {}) => ({
  name: 'Adtech Media',
  is_default: false,
  company_name: 'Adtech Media Iberia, S.L.',
  address: 'Calle de Alcalá 21 · 28014 Madrid',
  website: 'https://www.adtech.example',
  legal_en: 'Confidential: for the addressee only.',
  legal_es: 'Confidencial: solo para su destinatario.',
  social: [{ network: 'linkedin', url: 'https://www.linkedin.com/company/adtech' }],
  text_color: '#333333',
  accent_color: '#1a4f8b',
  logo_width: 120,
  version: 0,
  ...over,
});

const pngDataUrl = async () => {
  const png = await sharp({ create: { width: 600, height: 200, channels: 3, background: '#1a4f8b' } }).png().toBuffer();
  return `data:image/png;base64,${png.toString('base64')}`;
};

async function audits(action: string, entityId: number) {
  return query(db(), 'SELECT actor_id, before, after FROM audit_log WHERE action = $1 AND entity_id = $2 ORDER BY id', [action, String(entityId)]);
}

beforeAll(async () => {
  t = await createTestApp();
  admin = (await signIn(t.app, 'admin@adtech.example')).headers;
  reader = await userWithAcl(t.app, 'sig.reader@adtech.example', { '/v1/signatures': ['read'] });
  writer = await userWithAcl(t.app, 'sig.writer@adtech.example', { '/v1/signatures': ['read', 'write'] });
  none = (await userWithAcl(t.app, 'sig.none@adtech.example', { '/v1/creatives': ['read'] })).headers;
});
afterAll(async () => {
  await t?.close();
});

const inject = (method: 'GET' | 'POST' | 'PUT' | 'DELETE', url: string, headers: Record<string, string>, payload?: unknown) =>
  t.app.inject({ method, url, headers, ...(payload === undefined ? {} : { payload: payload as Record<string, unknown> }) });

describe('ACL', () => {
  it('without /v1/signatures every route answers 403; the logo route is public', async () => {
    for (const [method, url] of [
      ['GET', '/v1/signatures/me'],
      ['PUT', '/v1/signatures/me'],
      ['POST', '/v1/signatures/render'],
      ['GET', '/v1/signatures/templates'],
      ['GET', '/v1/signatures/people'],
    ] as const) {
      const res = await inject(method, url, none, method === 'GET' ? undefined : {});
      expect(res.statusCode, `${method} ${url}`).toBe(403);
    }
    expect((await t.app.inject({ method: 'GET', url: '/v1/signatures/me' })).statusCode).toBe(401);
  });

  it('read only: one’s own signature, not the templates’ changes nor anyone else’s signature', async () => {
    expect((await inject('POST', '/v1/signatures/templates', reader.headers, templateBody())).statusCode).toBe(403);
    expect((await inject('GET', '/v1/signatures/people', reader.headers)).statusCode).toBe(403);
    expect((await inject('GET', `/v1/signatures/people/${writer.id}`, reader.headers)).statusCode).toBe(403);
    expect((await inject('PUT', `/v1/signatures/people/${reader.id}`, reader.headers, { version: 0 })).statusCode).toBe(403);
    expect((await inject('GET', '/v1/signatures/templates', reader.headers)).statusCode).toBe(200);
  });
});

describe('a person’s own signature', () => {
  it('is prefilled from the user record until saved, with no template while none exists', async () => {
    const res = await inject('GET', '/v1/signatures/me', reader.headers);
    expect(res.statusCode).toBe(200);
    const me = body<MySignatureAnswer>(res).data;
    expect(me.can_manage).toBe(false);
    expect(me.signature).toMatchObject({ user_id: reader.id, version: 0, name: 'sig.reader', mail: 'sig.reader@adtech.example', title: '', phones: [], template_id: null, language: 'en' });
    expect(me.render.template_id).toBeNull();
    expect(me.render.issues).toEqual([]);
    expect(me.render.html).toContain('mailto:sig.reader@adtech.example');
    expect(body<MySignatureAnswer>(await inject('GET', '/v1/signatures/me', writer.headers)).data.can_manage).toBe(true);
  });

  it('bad input is refused with the keys next to the fields, nothing saved', async () => {
    const res = await inject('PUT', '/v1/signatures/me', reader.headers, {
      template_id: null,
      language: 'fr',
      name: ' ',
      title: 'x'.repeat(121),
      department: '',
      phones: [{ kind: 'mobile', number: '612 34 56 78' }, { kind: 'office', number: '+34 12' }],
      mail: 'not-a-mail',
      version: 0,
    });
    expect(res.statusCode).toBe(400);
    expect(body(res).errors).toEqual({
      language: 'error.invalid_value',
      name: 'error.required',
      title: 'error.too_long',
      'phones.0.number': 'signatures.phone_international',
      'phones.1.number': 'signatures.phone_invalid',
      mail: 'signatures.mail_invalid',
    });
    expect(await query(db(), 'SELECT 1 FROM signatures WHERE user_id = $1', [reader.id])).toHaveLength(0);
    const unknownTemplate = await inject('PUT', '/v1/signatures/me', reader.headers, { template_id: 999999, language: 'en', name: 'A', title: '', department: '', phones: [], mail: 'a@adtech.example', version: 0 });
    expect(unknownTemplate.statusCode).toBe(400);
    expect(body(unknownTemplate).errors).toEqual({ template_id: 'signatures.template_not_found' });
  });
});

describe('templates and signatures', () => {
  let first: SignatureTemplate;
  let second: SignatureTemplate;

  it('the first template is the default whatever the body says; its logo is read, made a PNG and served publicly', async () => {
    const res = await inject('POST', '/v1/signatures/templates', writer.headers, templateBody({ logo: await pngDataUrl() }));
    expect(res.statusCode).toBe(201);
    first = body<SignatureTemplate>(res).data;
    expect(first).toMatchObject({ name: 'Adtech Media', is_default: true, version: 1, logo_width: 120, updated_by: { id: writer.id } });
    expect(first.logo_path).toMatch(/^\/v1\/signatures\/logos\/\d+\/[0-9a-f]{16}\.png$/);
    expect(first.logo_size).toEqual({ width: 480, height: 160 });
    const logo = await t.app.inject({ method: 'GET', url: first.logo_path! });
    expect(logo.statusCode).toBe(200);
    expect(logo.headers['content-type']).toBe('image/png');
    expect(logo.headers['cache-control']).toContain('immutable');
    expect((await sharp(logo.rawPayload).metadata()).width).toBe(480);
    // An older hash (mail sent before the logo changed) gets the current logo, not a broken image.
    const older = await t.app.inject({ method: 'GET', url: first.logo_path!.replace(/[0-9a-f]{16}/, '0000000000000000') });
    expect(older.statusCode).toBe(200);
    expect(older.headers['cache-control']).toBe('public, max-age=86400');
    expect((await t.app.inject({ method: 'GET', url: `/v1/signatures/logos/999999/0000000000000000.png` })).statusCode).toBe(404);
    expect(await audits('signature_template.create', first.id)).toHaveLength(1);
  });

  it('refuses a taken name, colours that do not read in both modes, http links, a logo that is not an image, a logo width out of range', async () => {
    const res = await inject('POST', '/v1/signatures/templates', writer.headers, templateBody({ name: 'ADTECH MEDIA' }));
    expect(res.statusCode).toBe(400);
    expect(body(res).errors).toEqual({ name: 'signatures.template_name_taken' });
    const colours = await inject('POST', '/v1/signatures/templates', writer.headers, templateBody({ name: 'Other', text_color: '#d32f2f', accent_color: '#bbbbbb', website: 'http://adtech.example', logo_width: 500 }));
    expect(body(colours).errors).toEqual({
      text_color: 'signatures.color_dark_contrast',
      accent_color: 'signatures.color_light_contrast',
      website: 'signatures.url_https',
      logo_width: 'signatures.logo_width_range',
    });
    const notImage = `data:image/png;base64,${Buffer.from('<svg xmlns="http://www.w3.org/2000/svg"/>').toString('base64')}`;
    const logo = await inject('POST', '/v1/signatures/templates', writer.headers, templateBody({ name: 'Other', logo: notImage }));
    expect(logo.statusCode).toBe(400);
    expect(body(logo).errors).toEqual({ logo: 'signatures.logo_type' });
    const svgType = await inject('POST', '/v1/signatures/templates', writer.headers, templateBody({ name: 'Other', logo: 'data:image/svg+xml;base64,PHN2Zy8+' }));
    expect(body(svgType).errors).toEqual({ logo: 'signatures.logo_type' });
  });

  it('a second template; making it the default takes the flag from the first; the default cannot give it up', async () => {
    const res = await inject('POST', '/v1/signatures/templates', writer.headers, templateBody({ name: 'Adtech Performance', company_name: 'Adtech Performance, S.A.', accent_color: '#0f6b5c' }));
    expect(res.statusCode).toBe(201);
    second = body<SignatureTemplate>(res).data;
    expect(second.is_default).toBe(false);
    const moved = await inject('PUT', `/v1/signatures/templates/${second.id}`, writer.headers, templateBody({ name: 'Adtech Performance', company_name: 'Adtech Performance, S.A.', accent_color: '#0f6b5c', is_default: true, version: 1 }));
    expect(moved.statusCode).toBe(200);
    second = body<SignatureTemplate>(moved).data;
    expect(second).toMatchObject({ is_default: true, version: 2 });
    const list = body<SignatureTemplate[]>(await inject('GET', '/v1/signatures/templates', reader.headers)).data;
    expect(list.map((x) => [x.name, x.is_default])).toEqual([
      ['Adtech Performance', true],
      ['Adtech Media', false],
    ]);
    first = list[1]!;
    const giveUp = await inject('PUT', `/v1/signatures/templates/${second.id}`, writer.headers, templateBody({ name: 'Adtech Performance', company_name: 'Adtech Performance, S.A.', accent_color: '#0f6b5c', is_default: false, version: 2 }));
    expect(giveUp.statusCode).toBe(400);
    expect(body(giveUp).errors).toEqual({ is_default: 'signatures.template_default_required' });
    const del = await inject('DELETE', `/v1/signatures/templates/${second.id}`, writer.headers);
    expect(del.statusCode).toBe(400);
    expect(body(del).message).toBe('signatures.template_default_delete');
  });

  it('a stale template version answers 409 with the template as it is now; the same content again is answered as saved', async () => {
    const stale = await inject('PUT', `/v1/signatures/templates/${first.id}`, writer.headers, templateBody({ address: 'Gran Vía 1', version: first.version - 1 || 0 }));
    expect(stale.statusCode).toBe(409);
    expect(body(stale).message).toBe('resource.conflict');
    expect((body(stale).data as { current: SignatureTemplate }).current.version).toBe(first.version);
    const same = await inject('PUT', `/v1/signatures/templates/${first.id}`, admin, templateBody({ version: 0 }));
    expect(same.statusCode).toBe(200);
    expect(body<SignatureTemplate>(same).data.version).toBe(first.version);
  });

  it('a person saves their signature on a template: phones as E.164, the HTML with the absolute logo URL, audited', async () => {
    const res = await inject('PUT', '/v1/signatures/me', reader.headers, {
      template_id: first.id,
      language: 'es',
      name: 'Sig Reader',
      title: 'Account Manager',
      department: 'Demand',
      phones: [{ kind: 'mobile', number: '+34 612 34 56 78' }],
      mail: 'Sig.Reader@adtech.example',
      version: 0,
    });
    expect(res.statusCode).toBe(200);
    expect(body(res).message).toBe('signatures.saved');
    const { signature, render } = body<SignatureDetail>(res).data;
    expect(signature).toMatchObject({ version: 1, phones: [{ kind: 'mobile', number: '+34612345678' }], mail: 'sig.reader@adtech.example', template_id: first.id, updated_by: { id: reader.id } });
    expect(render.template_id).toBe(first.id);
    expect(render.html).toContain('href="tel:+34612345678"');
    expect(render.html).toContain('Confidencial: solo para su destinatario.');
    expect(render.html).toMatch(new RegExp(`<img src="http://localhost(:80)?${first.logo_path!.replace(/[.]/g, '\\.')}" width="120" height="40"`));
    expect(checkSignatureHtml(render.html, { allowHttpImages: true })).toEqual([]);
    expect(render.text).toContain('M.: +34 612 34 56 78');
    const [entry] = await audits('signature.create', reader.id);
    expect(entry).toMatchObject({ actor_id: reader.id, after: { title: 'Account Manager', phones: [{ kind: 'mobile', number: '+34612345678' }] } });
    // The render route gives what the saved signature gives: the API is the one authority.
    const rendered = await inject('POST', '/v1/signatures/render', reader.headers, { ...signature, user_id: undefined, version: undefined, updated_at: undefined, updated_by: undefined });
    expect(rendered.statusCode).toBe(200);
    const me = body<MySignatureAnswer>(await inject('GET', '/v1/signatures/me', reader.headers)).data;
    expect(body<SignatureRender>(rendered).data.html).toBe(me.render.html);
  });

  it('a stale version answers 409 with the signature as it is now; the same content sent again is answered as saved', async () => {
    const stale = await inject('PUT', '/v1/signatures/me', reader.headers, { template_id: first.id, language: 'es', name: 'Someone Else', title: '', department: '', phones: [], mail: 'sig.reader@adtech.example', version: 0 });
    expect(stale.statusCode).toBe(409);
    expect((body(stale).data as { current: PersonSignature }).current).toMatchObject({ version: 1, name: 'Sig Reader' });
    const replay = await inject('PUT', '/v1/signatures/me', reader.headers, {
      template_id: first.id,
      language: 'es',
      name: 'Sig Reader',
      title: 'Account Manager',
      department: 'Demand',
      phones: [{ kind: 'mobile', number: '+34612345678' }],
      mail: 'sig.reader@adtech.example',
      version: 0,
    });
    expect(replay.statusCode).toBe(200);
    expect(body<SignatureDetail>(replay).data.signature.version).toBe(1);
    expect(await audits('signature.update', reader.id)).toHaveLength(0);
  });

  it('a manager lists people and edits someone else’s signature; the person sees it', async () => {
    const people = body<SignaturePerson[]>(await inject('GET', '/v1/signatures/people?q=SIG.READ', writer.headers)).data;
    expect(people).toEqual([{ user_id: reader.id, name: 'sig.reader', mail: 'sig.reader@adtech.example', has_signature: true }]);
    const detail = body<SignatureDetail>(await inject('GET', `/v1/signatures/people/${reader.id}`, writer.headers)).data;
    expect(detail.signature.version).toBe(1);
    const res = await inject('PUT', `/v1/signatures/people/${reader.id}`, writer.headers, { ...detail.signature, user_id: undefined, updated_at: undefined, updated_by: undefined, title: 'Senior Account Manager' });
    expect(res.statusCode).toBe(200);
    expect(body<SignatureDetail>(res).data.signature).toMatchObject({ version: 2, title: 'Senior Account Manager', updated_by: { id: writer.id, name: 'sig.writer' } });
    const me = body<MySignatureAnswer>(await inject('GET', '/v1/signatures/me', reader.headers)).data;
    expect(me.signature.title).toBe('Senior Account Manager');
    const [entry] = await audits('signature.update', reader.id);
    expect(entry).toMatchObject({ actor_id: writer.id, before: { title: 'Account Manager' }, after: { title: 'Senior Account Manager' } });
    expect((await inject('GET', '/v1/signatures/people/999999', writer.headers)).statusCode).toBe(404);
  });

  it('escapes what people type: a name with a script or quotes cannot break out of the HTML', async () => {
    const res = await inject('POST', '/v1/signatures/render', reader.headers, {
      template_id: null,
      language: 'en',
      name: '<script>alert("x")</script>',
      title: '"><img src=x onerror=alert(1)>',
      department: "O'Brien & Co",
      phones: [],
      mail: 'sig.reader@adtech.example',
    });
    expect(res.statusCode).toBe(200);
    const r = body<SignatureRender>(res).data;
    expect(r.html).toContain('&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt;');
    expect(r.html).toContain('&quot;&gt;&lt;img src=x onerror=alert(1)&gt;');
    expect(r.html).toContain('O&#39;Brien &amp; Co');
    expect(r.html).not.toMatch(/<script|<img src=x/i);
    expect(r.issues).toEqual([]);
    // The default template (Adtech Performance) is used when none is chosen; the dark rendering too.
    expect(r.html).toContain('Adtech Performance, S.A.');
    expect(r.dark_html).not.toBe(r.html);
    expect(checkSignatureHtml(r.dark_html)).toEqual([]);
  });

  it('deleting a template moves its signatures to the default; deleting again answers 404', async () => {
    const del = await inject('DELETE', `/v1/signatures/templates/${first.id}`, writer.headers);
    expect(del.statusCode).toBe(200);
    expect(body(del).message).toBe('signatures.template_deleted');
    expect((await inject('DELETE', `/v1/signatures/templates/${first.id}`, writer.headers)).statusCode).toBe(404);
    const me = body<MySignatureAnswer>(await inject('GET', '/v1/signatures/me', reader.headers)).data;
    expect(me.signature.template_id).toBeNull();
    expect(me.render.template_id).toBe(second.id);
    expect((await t.app.inject({ method: 'GET', url: first.logo_path! })).statusCode).toBe(404);
    expect(await audits('signature_template.delete', first.id)).toHaveLength(1);
  });
});
