/**
 * E-mail signatures (`/utils/signature_manager`, ACL `/v1/signatures`; docs/decisions/047-signature-manager.md):
 * a person's details (name, title, department, phones in E.164, mail, language) on a company
 * template (logo, company name, address, website, legal notice in en/es, social links, two colours).
 *
 * The HTML is made here, once, by a pure function the browser runs for the live preview and the
 * API runs as the authority (what is copied comes from the API). It is what mail clients keep
 * when it is pasted: one table layout, inline styles only, no <style>, <script>, classes or
 * external CSS, images by absolute URL with a width, every text and attribute escaped.
 * `checkSignatureHtml` states those rules as a check, run by the unit tests and by the API on each
 * signature it answers.
 *
 * Dark mode: Gmail's apps and Outlook repaint a message for a dark background; colours too dark for
 * it get their lightness inverted (hue kept). `darkModeColor` simulates that, the dark preview uses
 * it, and a template's colours must keep 4.5:1 contrast on white AND, after that change, on the dark
 * background (so a colour that both modes leave alone, a saturated red, is refused).
 */
import { parsePhoneNumberFromString as parsePhoneNumber } from 'libphonenumber-js/max';
import { z } from 'zod';
import { safeText } from './text.ts';

export const SIGNATURE_RESOURCE = '/v1/signatures';
export const SIGNATURE_LANGUAGES = ['en', 'es'] as const;
export type SignatureLanguage = (typeof SIGNATURE_LANGUAGES)[number];
export const PHONE_KINDS = ['office', 'mobile'] as const;
export const SOCIAL_NETWORKS = ['linkedin', 'x', 'facebook', 'instagram', 'youtube', 'github'] as const;
export type SocialNetwork = (typeof SOCIAL_NETWORKS)[number];

export const MAX_PHONES = 3;
export const MAX_SOCIAL_LINKS = 6;
/** Widest the signature table gets (mail clients' reading panes; 600 px is the usual e-mail width). */
export const SIGNATURE_MAX_WIDTH = 600;
export const LOGO_MIN_WIDTH = 40;
export const LOGO_MAX_WIDTH = 240;
/** Gmail refuses signatures longer than 10,000 characters. */
export const SIGNATURE_HTML_MAX_CHARS = 10_000;
/** A logo as uploaded (the data URL's bytes): PNG or JPEG. */
export const LOGO_MAX_BYTES = 512 * 1024;
export const LIGHT_BACKGROUND = '#ffffff';
/** Gmail's and Outlook's dark reading panes are near #1f1f1f. */
export const DARK_BACKGROUND = '#1f1f1f';
/** WCAG AA for normal text. */
export const MIN_CONTRAST = 4.5;

// ---------------------------------------------------------------------------------------------
// Colours

const HEX = /^#[0-9a-f]{6}$/;

function rgbOf(hex: string): [number, number, number] {
  const n = Number.parseInt(hex.slice(1), 16);
  return [(n >> 16) & 255, (n >> 8) & 255, n & 255];
}
const hexOf = (rgb: readonly number[]) => `#${rgb.map((c) => Math.round(Math.min(255, Math.max(0, c))).toString(16).padStart(2, '0')).join('')}`;

/** WCAG relative luminance of a #rrggbb colour. */
export function luminance(hex: string): number {
  const [r, g, b] = rgbOf(hex).map((c) => {
    const s = c / 255;
    return s <= 0.03928 ? s / 12.92 : ((s + 0.055) / 1.055) ** 2.4;
  }) as [number, number, number];
  return 0.2126 * r + 0.7152 * g + 0.0722 * b;
}

/** WCAG contrast ratio of two colours (1 to 21). */
export function contrastRatio(a: string, b: string): number {
  const [x, y] = [luminance(a), luminance(b)].sort((p, q) => q - p) as [number, number];
  return (x + 0.05) / (y + 0.05);
}

function toHsl([r, g, b]: [number, number, number]): [number, number, number] {
  const [rr, gg, bb] = [r / 255, g / 255, b / 255];
  const max = Math.max(rr, gg, bb);
  const min = Math.min(rr, gg, bb);
  const l = (max + min) / 2;
  if (max === min) return [0, 0, l];
  const d = max - min;
  const s = l > 0.5 ? d / (2 - max - min) : d / (max + min);
  const h = max === rr ? (gg - bb) / d + (gg < bb ? 6 : 0) : max === gg ? (bb - rr) / d + 2 : (rr - gg) / d + 4;
  return [h / 6, s, l];
}

function fromHsl([h, s, l]: [number, number, number]): [number, number, number] {
  if (s === 0) return [l * 255, l * 255, l * 255];
  const q = l < 0.5 ? l * (1 + s) : l + s - l * s;
  const p = 2 * l - q;
  const channel = (t0: number) => {
    const t = t0 < 0 ? t0 + 1 : t0 > 1 ? t0 - 1 : t0;
    if (t < 1 / 6) return p + (q - p) * 6 * t;
    if (t < 1 / 2) return q;
    if (t < 2 / 3) return p + (q - p) * (2 / 3 - t) * 6;
    return p;
  };
  return [channel(h + 1 / 3) * 255, channel(h) * 255, channel(h - 1 / 3) * 255];
}

/**
 * The colour a dark-mode client shows for a text colour: one that already reads on the dark
 * background is kept; a darker one gets its lightness inverted (hue and saturation kept), as
 * Gmail's apps and Outlook's "full colour inversion" do.
 */
export function darkModeColor(hex: string): string {
  if (contrastRatio(hex, DARK_BACKGROUND) >= MIN_CONTRAST) return hex;
  const [h, s, l] = toHsl(rgbOf(hex));
  return hexOf(fromHsl([h, s, 1 - l]));
}

/** The problem of a text colour in either mode (an i18n key), or null when it reads in both. */
export function colorProblem(hex: string): string | null {
  if (contrastRatio(hex, LIGHT_BACKGROUND) < MIN_CONTRAST) return 'signatures.color_light_contrast';
  if (contrastRatio(darkModeColor(hex), DARK_BACKGROUND) < MIN_CONTRAST) return 'signatures.color_dark_contrast';
  return null;
}

// ---------------------------------------------------------------------------------------------
// Schemas

const text = (max: number) => safeText.transform((v) => v.trim()).pipe(z.string().max(max, 'error.too_long'));
const requiredText = (max: number) => safeText.transform((v) => v.trim()).pipe(z.string().min(1, 'error.required').max(max, 'error.too_long'));

/** An absolute https URL (links mail clients open; http is refused, javascript: and the like too). */
export function isHttpsUrl(value: string): boolean {
  if (!/^https:\/\//i.test(value)) return false;
  try {
    const u = new URL(value);
    return u.protocol === 'https:' && u.hostname.includes('.') && u.username === '' && u.password === '';
  } catch {
    return false;
  }
}
const httpsUrl = safeText
  .transform((v) => v.trim())
  .pipe(z.string().max(500, 'error.too_long').refine(isHttpsUrl, 'signatures.url_https'));
const optionalHttpsUrl = safeText
  .transform((v) => v.trim())
  .pipe(z.string().max(500, 'error.too_long').refine((v) => v === '' || isHttpsUrl(v), 'signatures.url_https'));

const colorSchema = z
  .string({ error: 'signatures.color_invalid' })
  .trim()
  .toLowerCase()
  .regex(HEX, 'signatures.color_invalid')
  .superRefine((v, ctx) => {
    const problem = colorProblem(v);
    if (problem) ctx.addIssue({ code: 'custom', message: problem });
  });

/**
 * A phone number in international form, normalised to E.164 (`+34 612 34 56 78` → `+34612345678`).
 * Without the country code it is refused (a signature is read in other countries).
 */
export function normalizePhone(value: string): { e164: string } | { error: string } {
  const v = value.trim();
  if (v === '') return { error: 'error.required' };
  if (!/^\+|^00/.test(v)) return { error: 'signatures.phone_international' };
  if (!/^[+0-9 ().\-/]+$/.test(v)) return { error: 'signatures.phone_invalid' };
  const parsed = parsePhoneNumber(v.replace(/^00/, '+'));
  if (!parsed || !parsed.isValid()) return { error: 'signatures.phone_invalid' };
  return { e164: parsed.number };
}

/** How a phone is shown: the international format of its country (`+34 612 34 56 78`). */
export function formatPhone(e164: string): string {
  return parsePhoneNumber(e164)?.formatInternational() ?? e164;
}

const phoneSchema = z.strictObject({
  kind: z.enum(PHONE_KINDS, { error: 'error.invalid_value' }),
  number: safeText.max(40, 'error.too_long').transform((v, ctx) => {
    const n = normalizePhone(v);
    if ('error' in n) {
      ctx.addIssue({ code: 'custom', message: n.error });
      return z.NEVER;
    }
    return n.e164;
  }),
});

export const signatureFieldsSchema = z.strictObject({
  /** null: the default template. */
  template_id: z.number({ error: 'error.invalid_value' }).int().min(1).max(2_147_483_647).nullable(),
  language: z.enum(SIGNATURE_LANGUAGES, { error: 'error.invalid_value' }),
  name: requiredText(120),
  title: text(120),
  department: text(120),
  phones: z.array(phoneSchema, { error: 'error.invalid_value' }).max(MAX_PHONES, 'signatures.phones_max'),
  mail: safeText
    .transform((v) => v.trim().toLowerCase())
    .pipe(z.string().min(1, 'error.required').max(254, 'error.too_long').email('signatures.mail_invalid')),
});
export type SignatureFields = z.output<typeof signatureFieldsSchema>;
export type SignatureInput = z.input<typeof signatureFieldsSchema>;

/** A save: the fields and the version read (0 for a signature never saved). */
export const signatureBodySchema = signatureFieldsSchema.extend({ version: z.number({ error: 'error.invalid_value' }).int().min(0).max(2_147_483_647) });
export type SignatureBody = z.input<typeof signatureBodySchema>;

const socialLinkSchema = z.strictObject({
  network: z.enum(SOCIAL_NETWORKS, { error: 'error.invalid_value' }),
  url: httpsUrl,
});

/** A logo as the form sends it: a PNG or JPEG data URL (the API reads its bytes, never trusts the type). */
export const LOGO_DATA_URL = /^data:image\/(png|jpeg);base64,([A-Za-z0-9+/]+={0,2})$/;

export const templateFieldsSchema = z.strictObject({
  name: requiredText(80),
  is_default: z.boolean({ error: 'error.invalid_value' }),
  company_name: requiredText(120),
  address: text(200),
  website: optionalHttpsUrl,
  legal_en: text(1200),
  legal_es: text(1200),
  social: z.array(socialLinkSchema, { error: 'error.invalid_value' }).max(MAX_SOCIAL_LINKS, 'signatures.social_max'),
  text_color: colorSchema,
  accent_color: colorSchema,
  logo_width: z.number({ error: 'error.invalid_value' }).int('error.invalid_value').min(LOGO_MIN_WIDTH, 'signatures.logo_width_range').max(LOGO_MAX_WIDTH, 'signatures.logo_width_range'),
  /**
   * undefined: keep the stored logo; null: no logo; a data URL: a new one. Its size is checked from
   * the base64 length before anything is decoded.
   */
  logo: z
    .string()
    .max(Math.ceil((LOGO_MAX_BYTES * 4) / 3) + 40, 'signatures.logo_too_large')
    .regex(LOGO_DATA_URL, 'signatures.logo_type')
    .nullable()
    .optional(),
});
export type TemplateFields = z.output<typeof templateFieldsSchema>;
export type TemplateInput = z.input<typeof templateFieldsSchema>;
export const templateBodySchema = templateFieldsSchema.extend({ version: z.number({ error: 'error.invalid_value' }).int().min(0).max(2_147_483_647) });
export type TemplateBody = z.input<typeof templateBodySchema>;

/** Query of the people a manager may pick. */
export const signaturePeopleQuerySchema = z.strictObject({ q: safeText.max(100, 'error.too_long').optional() });

/** The render route's body: a signature as typed (not saved). */
export const signatureRenderBodySchema = signatureFieldsSchema;

// ---------------------------------------------------------------------------------------------
// DTOs

export interface ChangedBy {
  id: number | null;
  name: string | null;
}

export interface SignatureTemplate {
  id: number;
  name: string;
  is_default: boolean;
  company_name: string;
  address: string;
  website: string;
  legal_en: string;
  legal_es: string;
  social: { network: SocialNetwork; url: string }[];
  text_color: string;
  accent_color: string;
  logo_width: number;
  /** Path of the logo the API serves (public, cacheable), or null. */
  logo_path: string | null;
  /** Its pixel size (the display height follows from logo_width). */
  logo_size: { width: number; height: number } | null;
  version: number;
  updated_at: string;
  updated_by: ChangedBy;
}

export interface PersonSignature extends SignatureFields {
  user_id: number;
  /** 0: never saved (the fields are prefilled from the user record). */
  version: number;
  updated_at: string | null;
  updated_by: ChangedBy | null;
}

export interface SignatureRender {
  html: string;
  /** The same signature as plain text (the clipboard's text/plain). */
  text: string;
  /** What a dark-mode client shows (for the preview; the copied HTML is `html`). */
  dark_html: string;
  /** The template used (null: none exists yet). */
  template_id: number | null;
  /** Problems of the HTML by checkSignatureHtml (i18n keys); empty for anything the API saved. */
  issues: string[];
}

export interface SignatureDetail {
  signature: PersonSignature;
  render: SignatureRender;
}

export interface SignaturePerson {
  user_id: number;
  name: string;
  mail: string;
  has_signature: boolean;
}

/** GET /v1/signatures/me: the caller's own signature and whether they manage templates and others. */
export interface MySignatureAnswer extends SignatureDetail {
  can_manage: boolean;
}

// ---------------------------------------------------------------------------------------------
// Rendering

/** Text for element content or a double-quoted attribute: nothing can break out. */
export function escapeHtml(value: string): string {
  return value.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;').replace(/'/g, '&#39;');
}

/** The parts of a template the HTML needs (the logo as an absolute URL). */
export interface RenderTemplate {
  company_name: string;
  address: string;
  website: string;
  legal_en: string;
  legal_es: string;
  social: readonly { network: SocialNetwork; url: string }[];
  text_color: string;
  accent_color: string;
  logo_width: number;
  /** Absolute URL of the logo, or null. */
  logo_url: string | null;
  logo_size: { width: number; height: number } | null;
}

export interface RenderOptions {
  scheme?: 'light' | 'dark';
  /** Labels in the signature's language (the API and the web pass their catalogue's texts). */
  labels: SignatureLabels;
}

/** The words of a signature in its language (core keys signatures.label.office / .mobile). */
export interface SignatureLabels {
  office: string;
  mobile: string;
}

export const NETWORK_NAMES: Record<SocialNetwork, string> = {
  linkedin: 'LinkedIn',
  x: 'X',
  facebook: 'Facebook',
  instagram: 'Instagram',
  youtube: 'YouTube',
  github: 'GitHub',
};

/** A template as the renderer takes it, with the logo's absolute URL (`origin` + its path). */
export function renderTemplateOf(t: SignatureTemplate, origin: string): RenderTemplate {
  return { ...t, logo_url: t.logo_path ? `${origin.replace(/\/+$/, '')}${t.logo_path}` : null };
}

const FONT = 'Arial,Helvetica,sans-serif';
/** A style attribute's value (escaped too: colours come from checked data, but nothing is trusted here). */
const style = (parts: Record<string, string | number>) =>
  escapeHtml(
    Object.entries(parts)
      .map(([k, v]) => `${k}:${v}`)
      .join(';'),
  );

const websiteText = (url: string) => url.replace(/^https:\/\//i, '').replace(/\/$/, '');

/**
 * The signature's HTML: a table at most SIGNATURE_MAX_WIDTH wide, the logo in the left cell (when
 * the template has one), the person and the company in the right one, the legal notice under them.
 * Inline styles only; colours from the template (or their dark-mode rendering for the dark preview).
 */
export function renderSignatureHtml(person: SignatureFields, template: RenderTemplate | null, options: RenderOptions): string {
  const dark = options.scheme === 'dark';
  const color = (hex: string) => (dark ? darkModeColor(hex) : hex);
  const textColor = color(template?.text_color ?? '#333333');
  const accent = color(template?.accent_color ?? '#1a4f8b');
  const e = escapeHtml;
  const base = { 'font-family': FONT, color: textColor };
  const line = (content: string, extra: Record<string, string | number> = {}) =>
    `<tr><td style="${style({ ...base, 'font-size': '13px', 'line-height': '18px', padding: '0', ...extra })}">${content}</td></tr>`;
  // Underlined: a link next to text ("M.: +34…", "LinkedIn · X") must not rely on colour alone.
  const link = (href: string, label: string) => `<a href="${e(href)}" style="${style({ color: accent, 'text-decoration': 'underline' })}">${e(label)}</a>`;

  const rows: string[] = [];
  rows.push(line(e(person.name), { 'font-size': '16px', 'line-height': '22px', 'font-weight': 'bold', color: accent }));
  const role = [person.title, person.department].filter((v) => v !== '').map(e).join(' · ');
  if (role) rows.push(line(role));
  for (const p of person.phones) rows.push(line(`${e(p.kind === 'mobile' ? options.labels.mobile : options.labels.office)}: ${link(`tel:${p.number}`, formatPhone(p.number))}`));
  rows.push(line(link(`mailto:${person.mail}`, person.mail)));
  if (template) {
    rows.push(line(e(template.company_name), { 'font-weight': 'bold', 'padding-top': '8px' }));
    if (template.address) rows.push(line(e(template.address), { 'font-size': '12px' }));
    if (template.website) rows.push(line(link(template.website, websiteText(template.website))));
    if (template.social.length > 0)
      rows.push(line(template.social.map((s) => link(s.url, NETWORK_NAMES[s.network])).join(' &middot; '), { 'padding-top': '4px' }));
  }
  const details = `<table role="presentation" cellpadding="0" cellspacing="0" border="0" style="${style({ 'border-collapse': 'collapse' })}">${rows.join('')}</table>`;

  const cells: string[] = [];
  if (template?.logo_url && template.logo_size) {
    const width = template.logo_width;
    const height = Math.max(1, Math.round((template.logo_size.height * width) / template.logo_size.width));
    cells.push(
      `<td valign="top" width="${width}" style="${style({ padding: '0 16px 0 0', 'vertical-align': 'top', width: `${width}px` })}">` +
        `<img src="${e(template.logo_url)}" width="${width}" height="${height}" alt="${e(template.company_name)}" style="${style({ display: 'block', border: '0', width: `${width}px`, height: `${height}px`, 'max-width': `${width}px` })}">` +
        `</td>`,
    );
  }
  cells.push(`<td valign="top" style="${style({ padding: '0', 'vertical-align': 'top' })}">${details}</td>`);

  const legal = template ? (person.language === 'es' ? template.legal_es : template.legal_en) : '';
  const legalRow = legal
    ? `<tr><td colspan="${cells.length}" style="${style({ ...base, 'font-size': '11px', 'line-height': '15px', padding: '12px 0 0 0' })}">${e(legal).replace(/\r?\n/g, '<br>')}</td></tr>`
    : '';
  return (
    `<table role="presentation" cellpadding="0" cellspacing="0" border="0" width="${SIGNATURE_MAX_WIDTH}" style="${style({ 'border-collapse': 'collapse', width: '100%', 'max-width': `${SIGNATURE_MAX_WIDTH}px` })}">` +
    `<tr>${cells.join('')}</tr>${legalRow}</table>`
  );
}

/** The same signature as plain text, for the clipboard's text/plain and plain-text mail. */
export function renderSignatureText(person: SignatureFields, template: RenderTemplate | null, labels: SignatureLabels): string {
  const lines = ['-- ', person.name];
  const role = [person.title, person.department].filter((v) => v !== '').join(' · ');
  if (role) lines.push(role);
  for (const p of person.phones) lines.push(`${p.kind === 'mobile' ? labels.mobile : labels.office}: ${formatPhone(p.number)}`);
  lines.push(person.mail);
  if (template) {
    lines.push('', template.company_name);
    if (template.address) lines.push(template.address);
    if (template.website) lines.push(template.website);
    for (const s of template.social) lines.push(`${NETWORK_NAMES[s.network]}: ${s.url}`);
    const legal = person.language === 'es' ? template.legal_es : template.legal_en;
    if (legal) lines.push('', legal);
  }
  return lines.join('\n');
}

// ---------------------------------------------------------------------------------------------
// The rules of a signature's HTML

/**
 * What keeps a signature's HTML from surviving a paste into a mail client, as i18n keys (empty:
 * none). `allowHttpImages`: a development server's own logo URL (http://localhost) is accepted.
 */
export function checkSignatureHtml(html: string, opts: { allowHttpImages?: boolean } = {}): string[] {
  const issues = new Set<string>();
  if (html.length > SIGNATURE_HTML_MAX_CHARS) issues.add('signatures.html.too_long');
  if (!/^<table[\s>]/i.test(html.trim())) issues.add('signatures.html.not_table');
  if (/@import/i.test(html)) issues.add('signatures.html.external_css');
  // Text is escaped, so every '<' starts a tag: the rules read the tags only (a title that says
  // "onboarding=yes" is text, not an attribute).
  for (const m of html.matchAll(/<(\/?)([a-z][a-z0-9]*)\b([^>]*)>/gi)) {
    const name = m[2]!.toLowerCase();
    const attrs = m[3] ?? '';
    // Attribute names, with the quoted values emptied (an escaped alt text may say "onload=").
    const names = attrs.replace(/"[^"]*"|'[^']*'/g, '""');
    if (name === 'style') issues.add('signatures.html.style_element');
    else if (name === 'script') issues.add('signatures.html.script');
    else if (name === 'link') issues.add('signatures.html.external_css');
    else if (!['table', 'tr', 'td', 'a', 'img', 'br'].includes(name)) issues.add('signatures.html.element');
    if (/\sclass\s*=/i.test(names)) issues.add('signatures.html.class_attribute');
    if (/\son[a-z]+\s*=/i.test(names)) issues.add('signatures.html.event_handler');
    if (/(?:href|src)\s*=\s*["']?\s*(?:javascript|vbscript|data):/i.test(attrs)) issues.add('signatures.html.unsafe_url');
    for (const w of attrs.matchAll(/\swidth="(\d+)"/gi)) if (Number(w[1]) > SIGNATURE_MAX_WIDTH) issues.add('signatures.html.too_wide');
    if (name === 'img') {
      const src = /\ssrc="([^"]*)"/i.exec(attrs)?.[1] ?? '';
      const httpOk = opts.allowHttpImages === true && /^http:\/\/[^/]+\//i.test(src);
      if (!/^https:\/\/[^/]+\//i.test(src) && !httpOk) issues.add('signatures.html.image_url');
      const width = Number(/\swidth="(\d+)"/i.exec(attrs)?.[1] ?? NaN);
      if (!Number.isFinite(width) || width > LOGO_MAX_WIDTH) issues.add('signatures.html.image_width');
      if (!/\salt="/i.test(attrs)) issues.add('signatures.html.image_alt');
    }
  }
  if (/<(?![a-z/])/i.test(html)) issues.add('signatures.html.element');
  return [...issues].sort();
}

/** A whole HTML file for the download (the signature in a minimal document). */
export function signatureHtmlDocument(html: string, title: string): string {
  return `<!DOCTYPE html>\n<html>\n<head>\n<meta charset="utf-8">\n<title>${escapeHtml(title)}</title>\n</head>\n<body>\n${html}\n</body>\n</html>\n`;
}

/** The download's file name: signature-<name in [a-z0-9-]>.html. */
export function signatureFileName(name: string): string {
  const slug = name
    .normalize('NFD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, 60);
  return `signature-${slug || 'email'}.html`;
}
