/**
 * Postback URLs of campaign events (`/performanceTools/campaign_list/{id}/events/{idEvent}`,
 * docs/decisions/043-offers-and-campaigns.md): the URL our server calls when a conversion of the
 * event happens, with macros in braces (`{click_id}`) that are replaced by the conversion's values.
 *
 * - The macros are a closed list (POSTBACK_MACROS), each with what it stands for (an i18n key) and
 *   an example value; anything else in braces is an unknown macro, flagged rather than sent as it
 *   is (the receiving server would get a literal `{clickid}` and lose the conversion).
 * - Resolution URL-encodes every value (encodeURIComponent), so a value with `&`, `=`, `/` or a
 *   space cannot change the URL's shape.
 * - The spec's URL rule applies to the URL as it is sent (macros replaced by their examples): it
 *   starts with http, https, ftp or ftps and names a host. A postback is an HTTP call, so it also
 *   has to be http or https.
 * The form (live, as one types) and the API check with these functions and their message keys.
 */
import { isValidUrl } from './inputs.ts';

export const POSTBACK_MACRO_NAMES = [
  'click_id',
  'payout',
  'revenue',
  'event',
  'event_id',
  'campaign_id',
  'offer_id',
  'currency',
  'timestamp',
  'sub1',
  'sub2',
  'sub3',
  'sub4',
  'sub5',
  'country',
] as const;
export type PostbackMacro = (typeof POSTBACK_MACRO_NAMES)[number];

export interface PostbackMacroDef {
  name: PostbackMacro;
  /** i18n key of what the macro stands for (`campaign.macro.click_id`). */
  description: string;
  /** A value it could take, when the event being edited gives none. */
  example: string;
}

/** An example value of each macro (a click id as our tracker writes it, a unix time in seconds…). */
export const MACRO_EXAMPLE_VALUES: Readonly<Record<PostbackMacro, string>> = {
  click_id: '7f3c9a2e5b1d4e8a',
  payout: '2.50',
  revenue: '3.20',
  event: 'install',
  event_id: '12',
  campaign_id: '34',
  offer_id: '56',
  currency: 'USD',
  // 2026-01-15 10:30:00 UTC, in seconds (what postback receivers expect of a unix time).
  timestamp: '1768473000',
  sub1: 'pub-1042',
  sub2: 'site-77',
  sub3: 'banner_300x250',
  sub4: 'summer sale',
  sub5: 'A/B',
  country: 'ES',
};

/** Each macro with what it means and its example. */
export const POSTBACK_MACROS: readonly PostbackMacroDef[] = POSTBACK_MACRO_NAMES.map((name) => ({
  name,
  description: `campaign.macro.${name}`,
  example: MACRO_EXAMPLE_VALUES[name],
}));

export const isPostbackMacro = (name: string): name is PostbackMacro =>
  (POSTBACK_MACRO_NAMES as readonly string[]).includes(name);

/** At most this many characters in a postback or tracking URL (as typed). */
export const MAX_MACRO_URL_LENGTH = 2000;

/** `{anything}` without braces or spaces inside. */
const TOKEN = /\{([^{}\s]*)\}/g;

/** The macros a URL names, in order of appearance, each once (known or not). */
export function macrosIn(url: string): string[] {
  const out: string[] = [];
  for (const m of url.matchAll(TOKEN)) if (!out.includes(m[1]!)) out.push(m[1]!);
  return out;
}

/**
 * What in a URL is not a known macro: unknown names in braces (`{clickid}`), and a brace that opens
 * or closes no macro (`{click_id`), reported as the text that follows it.
 */
export function unknownMacros(url: string): string[] {
  const unknown = macrosIn(url).filter((name) => !isPostbackMacro(name));
  const rest = url.replace(TOKEN, '');
  const stray = /[{}]/.exec(rest);
  if (stray) unknown.push(rest.slice(stray.index, stray.index + 16));
  return unknown.map((name) => (name.includes('{') || name.includes('}') ? name : `{${name}}`));
}

/** Values of the macros: what a test or a conversion gives, the others their examples. */
export type MacroValues = Partial<Record<PostbackMacro, string>>;

/**
 * The URL with each known macro replaced by its URL-encoded value (an empty text when the value is
 * absent and `fallback` is false); unknown macros stay as they are (see unknownMacros).
 */
export function resolveMacros(url: string, values: MacroValues, fallback = true): string {
  return url.replace(TOKEN, (whole, name: string) => {
    if (!isPostbackMacro(name)) return whole;
    const value = values[name] ?? (fallback ? MACRO_EXAMPLE_VALUES[name] : '');
    return encodeURIComponent(value);
  });
}

/**
 * The examples of an event being edited: its own figures and ids where it has them (a payout typed
 * in the form, the campaign's currency), the fixed examples for the others.
 */
export function exampleValues(context: {
  payout?: string | null;
  revenue?: string | null;
  event?: string | null;
  event_id?: number | null;
  campaign_id?: number | null;
  offer_id?: number | null;
  currency?: string | null;
}): Record<PostbackMacro, string> {
  const out: Record<PostbackMacro, string> = { ...MACRO_EXAMPLE_VALUES };
  const set = (name: PostbackMacro, value: string | number | null | undefined) => {
    if (value !== null && value !== undefined && String(value).trim() !== '')
      out[name] = String(value).trim();
  };
  set('payout', context.payout);
  set('revenue', context.revenue);
  set('event', context.event);
  set('event_id', context.event_id);
  set('campaign_id', context.campaign_id);
  set('offer_id', context.offer_id);
  set('currency', context.currency);
  return out;
}

export const POSTBACK_ERRORS = {
  required: 'error.required',
  tooLong: 'error.too_long',
  unknownMacro: 'campaign.postback.unknown_macro',
  url: 'inputs.url.invalid',
  httpOnly: 'campaign.postback.http_only',
} as const;

/**
 * The problem of a URL with macros, as a message key, or null when it is fine: empty, too long, an
 * unknown macro, not a URL by the spec's rule once its macros are replaced by their examples, and
 * (`httpOnly`, a postback) not http or https.
 */
export function macroUrlProblem(text: string, opts: { httpOnly?: boolean } = {}): string | null {
  const url = text.trim();
  if (url === '') return POSTBACK_ERRORS.required;
  if (url.length > MAX_MACRO_URL_LENGTH) return POSTBACK_ERRORS.tooLong;
  if (unknownMacros(url).length > 0) return POSTBACK_ERRORS.unknownMacro;
  const resolved = resolveMacros(url, MACRO_EXAMPLE_VALUES);
  if (!isValidUrl(resolved)) return POSTBACK_ERRORS.url;
  if (opts.httpOnly && !/^https?:\/\//i.test(resolved)) return POSTBACK_ERRORS.httpOnly;
  return null;
}

/** A postback URL's problem (http or https only), or null. */
export const postbackUrlProblem = (text: string): string | null => macroUrlProblem(text, { httpOnly: true });

/** A postback test as the API answers it (GET and POST …/events/:id/postback-tests). */
export interface PostbackTestDto {
  id: number;
  event_id: number;
  requested_at: string;
  requested_by: { id: number | null; name: string | null };
  status: 'sending' | 'done' | 'refused' | 'error';
  /** The resolved URL that was (or would have been) requested. */
  url: string;
  values: Record<string, string>;
  http_status: number | null;
  response_headers: Record<string, string> | null;
  response_body: string | null;
  redirects: string[];
  error_key: string | null;
  error_detail: string | null;
  duration_ms: number | null;
  /** A retried request (same idempotency key): the test it made earlier. */
  already?: boolean;
}
