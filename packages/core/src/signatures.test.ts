import { describe, expect, it } from 'vitest';
import {
  checkSignatureHtml,
  colorProblem,
  contrastRatio,
  DARK_BACKGROUND,
  darkModeColor,
  formatPhone,
  normalizePhone,
  renderSignatureHtml,
  renderSignatureText,
  signatureFieldsSchema,
  signatureFileName,
  SIGNATURE_HTML_MAX_CHARS,
  templateFieldsSchema,
  type RenderTemplate,
  type SignatureFields,
} from './signatures.ts';

const labels = { office: 'T.', mobile: 'M.' };

const person: SignatureFields = signatureFieldsSchema.parse({
  template_id: null,
  language: 'en',
  name: 'Lucía Fernández',
  title: 'Demand Lead',
  department: 'Demand',
  phones: [{ kind: 'mobile', number: '+34 612 34 56 78' }],
  mail: 'Demand.Lead@adtech.example',
});

const template: RenderTemplate = {
  company_name: 'Adtech Media Iberia, S.L.',
  address: 'Calle de Alcalá 21 · 28014 Madrid',
  website: 'https://www.adtech.example',
  legal_en: 'Confidential.\nIf received by mistake, delete it.',
  legal_es: 'Confidencial.',
  social: [{ network: 'linkedin', url: 'https://www.linkedin.com/company/adtech' }],
  text_color: '#333333',
  accent_color: '#1a4f8b',
  logo_width: 140,
  logo_url: 'https://backoffice.adtech.example/v1/signatures/logos/1/0123456789abcdef.png',
  logo_size: { width: 420, height: 120 },
};

const templateInput = {
  name: 'Main',
  is_default: true,
  company_name: 'Adtech',
  address: '',
  website: '',
  legal_en: '',
  legal_es: '',
  social: [],
  text_color: '#333333',
  accent_color: '#1a4f8b',
  logo_width: 140,
};

describe('phones', () => {
  it('normalises an international number to E.164 and shows it in its country’s format', () => {
    expect(normalizePhone('+34 612 34 56 78')).toEqual({ e164: '+34612345678' });
    expect(normalizePhone('0034 (612) 345-678')).toEqual({ e164: '+34612345678' });
    expect(formatPhone('+34612345678')).toBe('+34 612 34 56 78');
    expect(normalizePhone('+33 6 12 34 56 78')).toEqual({ e164: '+33612345678' });
  });
  it('refuses a number without country code, an impossible one and letters', () => {
    expect(normalizePhone('612 34 56 78')).toEqual({ error: 'signatures.phone_international' });
    expect(normalizePhone('+34 12')).toEqual({ error: 'signatures.phone_invalid' });
    expect(normalizePhone('+34 612 abc 678')).toEqual({ error: 'signatures.phone_invalid' });
    expect(normalizePhone('+1 000 000 0000')).toEqual({ error: 'signatures.phone_invalid' });
  });
  it('the schema stores E.164 and reports the phone’s path', () => {
    expect(person.phones).toEqual([{ kind: 'mobile', number: '+34612345678' }]);
    expect(person.mail).toBe('demand.lead@adtech.example');
    const bad = signatureFieldsSchema.safeParse({ ...person, phones: [{ kind: 'office', number: '+34 612 34 56 78' }, { kind: 'mobile', number: '91 123' }] });
    expect(bad.success).toBe(false);
    expect(bad.error!.issues.map((i) => [i.path.join('.'), i.message])).toEqual([['phones.1.number', 'signatures.phone_international']]);
  });
  it('requires a name and a mail', () => {
    const bad = signatureFieldsSchema.safeParse({ ...person, name: '  ', mail: 'nope' });
    expect(bad.error!.issues.map((i) => [i.path.join('.'), i.message]).sort()).toEqual([
      ['mail', 'signatures.mail_invalid'],
      ['name', 'error.required'],
    ]);
  });
});

describe('colours for light and dark clients', () => {
  it('keeps a colour that already reads on the dark background and inverts the lightness of a dark one', () => {
    expect(darkModeColor('#ffffff')).toBe('#ffffff');
    expect(darkModeColor('#000000')).toBe('#ffffff');
    const navy = darkModeColor('#1a4f8b');
    expect(navy).not.toBe('#1a4f8b');
    expect(contrastRatio(navy, DARK_BACKGROUND)).toBeGreaterThanOrEqual(4.5);
  });
  it('accepts dark text and a deep accent; refuses a light grey (light mode) and a saturated red (neither mode changes it enough)', () => {
    expect(colorProblem('#333333')).toBeNull();
    expect(colorProblem('#1a4f8b')).toBeNull();
    expect(colorProblem('#aaaaaa')).toBe('signatures.color_light_contrast');
    expect(colorProblem('#d32f2f')).toBe('signatures.color_dark_contrast');
  });
  it('the template schema refuses those colours with their keys and bad hex', () => {
    const r = templateFieldsSchema.safeParse({ ...templateInput, text_color: '#d32f2f', accent_color: 'blue' });
    expect(r.error!.issues.map((i) => [i.path.join('.'), i.message])).toEqual([
      ['text_color', 'signatures.color_dark_contrast'],
      ['accent_color', 'signatures.color_invalid'],
    ]);
  });
  it('links must be https', () => {
    const r = templateFieldsSchema.safeParse({ ...templateInput, website: 'http://adtech.example', social: [{ network: 'x', url: 'javascript:alert(1)' }] });
    expect(r.error!.issues.map((i) => [i.path.join('.'), i.message])).toEqual([
      ['website', 'signatures.url_https'],
      ['social.0.url', 'signatures.url_https'],
    ]);
  });
});

describe('the signature HTML', () => {
  const html = renderSignatureHtml(person, template, { labels });

  it('is one table with inline styles only: no <style>, <script>, classes or external CSS', () => {
    expect(html.startsWith('<table')).toBe(true);
    expect(html).not.toMatch(/<style|<script|<link|\sclass=|<div|<span|<p[\s>]/i);
    // Every element that is drawn has its own style attribute.
    for (const m of html.matchAll(/<(table|td|a|img)\b[^>]*>/g)) expect(m[0]).toMatch(/\sstyle="[^"]+"/);
    expect(checkSignatureHtml(html)).toEqual([]);
  });

  it('shows the person, the company, links and the legal notice in the signature’s language', () => {
    expect(html).toContain('Lucía Fernández');
    expect(html).toContain('Demand Lead · Demand');
    expect(html).toContain('href="tel:+34612345678"');
    expect(html).toContain('+34 612 34 56 78');
    expect(html).toContain('href="mailto:demand.lead@adtech.example"');
    expect(html).toContain('Adtech Media Iberia, S.L.');
    expect(html).toContain('>www.adtech.example</a>');
    expect(html).toContain('>LinkedIn</a>');
    expect(html).toContain('Confidential.<br>If received by mistake');
    expect(renderSignatureHtml({ ...person, language: 'es' }, template, { labels })).toContain('Confidencial.');
  });

  it('the logo: absolute https URL, width and height attributes within the limits, the company as alt text', () => {
    expect(html).toMatch(/<img src="https:\/\/backoffice\.adtech\.example\/v1\/signatures\/logos\/1\/0123456789abcdef\.png" width="140" height="40" alt="Adtech Media Iberia, S.L."/);
  });

  it('escapes every text: a name with a script or quotes cannot break out of its element or attribute', () => {
    const evil = signatureFieldsSchema.parse({
      ...person,
      name: '<script>alert("x")</script>',
      title: '"><img src=x onerror=alert(1)>',
      department: "O'Brien & Co",
    });
    const evilTemplate = { ...template, company_name: '"><svg onload=alert(1)>', legal_en: '</td></tr></table><style>*{}</style>' };
    const out = renderSignatureHtml(evil, evilTemplate, { labels });
    expect(out).toContain('&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt;');
    expect(out).toContain('&quot;&gt;&lt;img src=x onerror=alert(1)&gt;');
    expect(out).toContain('O&#39;Brien &amp; Co');
    expect(out).toContain('alt="&quot;&gt;&lt;svg onload=alert(1)&gt;"');
    expect(out).not.toMatch(/<script|<style|<svg|<img src=x/i);
    expect(checkSignatureHtml(out)).toEqual([]);
  });

  it('works without a template and without phones', () => {
    const bare = renderSignatureHtml({ ...person, phones: [], title: '', department: '' }, null, { labels });
    expect(checkSignatureHtml(bare)).toEqual([]);
    expect(bare).not.toContain('<img');
  });

  it('the dark rendering uses the dark-mode colours and passes the same rules', () => {
    const dark = renderSignatureHtml(person, template, { labels, scheme: 'dark' });
    expect(dark).toContain(`color:${darkModeColor('#1a4f8b')}`);
    expect(dark).not.toContain('color:#1a4f8b');
    expect(checkSignatureHtml(dark)).toEqual([]);
  });

  it('the plain text has the same facts', () => {
    const text = renderSignatureText(person, template, labels);
    expect(text.split('\n').slice(0, 5)).toEqual(['-- ', 'Lucía Fernández', 'Demand Lead · Demand', 'M.: +34 612 34 56 78', 'demand.lead@adtech.example']);
    expect(text).toContain('LinkedIn: https://www.linkedin.com/company/adtech');
  });
});

describe('checkSignatureHtml finds what mail clients drop', () => {
  const ok = '<table style="width:100%"><tr><td style="color:#333">x</td></tr></table>';
  it.each([
    ['<table><tr><td><style>td{}</style></td></tr></table>', 'signatures.html.style_element'],
    ['<table><tr><td><script>x()</script></td></tr></table>', 'signatures.html.script'],
    ['<table><tr><td><link rel="stylesheet" href="https://x.example/a.css"></td></tr></table>', 'signatures.html.external_css'],
    ['<table class="sig"><tr><td>x</td></tr></table>', 'signatures.html.class_attribute'],
    ['<table><tr><td onclick="x()">x</td></tr></table>', 'signatures.html.event_handler'],
    ['<table><tr><td><a href="javascript:x()">x</a></td></tr></table>', 'signatures.html.unsafe_url'],
    ['<table><tr><td><img src="/logo.png" width="100" alt=""></td></tr></table>', 'signatures.html.image_url'],
    ['<table><tr><td><img src="https://x.example/l.png" alt=""></td></tr></table>', 'signatures.html.image_width'],
    ['<table><tr><td><img src="https://x.example/l.png" width="100"></td></tr></table>', 'signatures.html.image_alt'],
    ['<table width="800"><tr><td>x</td></tr></table>', 'signatures.html.too_wide'],
    ['<div><table><tr><td>x</td></tr></table></div>', 'signatures.html.not_table'],
    ['<table><tr><td><div>x</div></td></tr></table>', 'signatures.html.element'],
    [`<table><tr><td>${'x'.repeat(SIGNATURE_HTML_MAX_CHARS)}</td></tr></table>`, 'signatures.html.too_long'],
  ].map(([html, key]) => [key!, html!]))('%s', (key, html) => {
    expect(checkSignatureHtml(html)).toContain(key);
    expect(checkSignatureHtml(ok)).toEqual([]);
  });
  it('text that looks like an attribute is not one', () => {
    expect(checkSignatureHtml('<table><tr><td> onboarding=yes class=x</td></tr></table>')).toEqual([]);
  });
  it('http images only on a development server', () => {
    const html = '<table><tr><td><img src="http://localhost:3000/v1/signatures/logos/1/a.png" width="100" alt="A"></td></tr></table>';
    expect(checkSignatureHtml(html)).toEqual(['signatures.html.image_url']);
    expect(checkSignatureHtml(html, { allowHttpImages: true })).toEqual([]);
  });
});

it('the download’s file name is the name in [a-z0-9-]', () => {
  expect(signatureFileName('Lucía Fernández')).toBe('signature-lucia-fernandez.html');
  expect(signatureFileName('<>')).toBe('signature-email.html');
});
