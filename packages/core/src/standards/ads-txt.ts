/**
 * ads.txt (IAB Tech Lab ads.txt specification, version 1.1): reading a publisher's file and writing the
 * lines a publisher should add for our exchange. Pure text in, plain objects out (no fetching).
 *
 * The format, as this module reads it:
 * - a line ends with LF or CRLF; a UTF-8 byte order mark at the start of the file is ignored;
 * - `#` starts a comment that runs to the end of the line, wherever it appears; blank lines are ignored;
 * - a data record is `<domain>, <account id>, <DIRECT|RESELLER>[, <certification authority id>]`, fields
 *   separated by commas with surrounding whitespace trimmed; anything after the first `;` is the extension,
 *   kept as written and not parsed. Fields after the 4th are ignored;
 * - a variable is `<NAME>=<value>`, NAME being CONTACT, SUBDOMAIN, INVENTORYPARTNERDOMAIN, OWNERDOMAIN or
 *   MANAGERDOMAIN (case-insensitive). The value is kept whole, commas included (MANAGERDOMAIN may be
 *   `<domain>,<country code>`).
 * Domains compare case-insensitively (they are lower-cased), account ids exactly, relationships in upper case.
 * Malformed lines are collected as errors with their 1-based line number; parsing never throws.
 */

/** Relationship of a seller account to the publisher (ads.txt field #3). */
export const ADS_TXT_RELATIONSHIPS = ['DIRECT', 'RESELLER'] as const;
export type AdsTxtRelationship = (typeof ADS_TXT_RELATIONSHIPS)[number];

/** Variables defined by ads.txt 1.1. */
export const ADS_TXT_VARIABLES = [
  'CONTACT',
  'SUBDOMAIN',
  'INVENTORYPARTNERDOMAIN',
  'OWNERDOMAIN',
  'MANAGERDOMAIN',
] as const;
export type AdsTxtVariableName = (typeof ADS_TXT_VARIABLES)[number];

/** Why a line could not be read. */
export const ADS_TXT_ERROR_REASONS = [
  'too_few_fields',
  'bad_relationship',
  'bad_domain',
  'empty_account_id',
  'unknown_variable',
] as const;
export type AdsTxtErrorReason = (typeof ADS_TXT_ERROR_REASONS)[number];

/** A data record: one advertising system account authorised to sell the publisher's inventory. */
export interface AdsTxtRecord {
  /** 1-based line number in the file. */
  line: number;
  /** Domain of the advertising system, lower-cased and trimmed. */
  domain: string;
  /** The publisher's account id in that system, as written (trimmed). */
  accountId: string;
  relationship: AdsTxtRelationship;
  /** Certification authority id (e.g. the TAG id), or null when absent or empty. */
  certificationAuthorityId: string | null;
  /** Text after the first `;`, trimmed, not parsed; null when there is none. */
  extension: string | null;
}

export interface AdsTxtVariable {
  line: number;
  /** Upper case. */
  name: AdsTxtVariableName;
  /** As written, trimmed. */
  value: string;
}

export interface AdsTxtLineError {
  line: number;
  /** The line as written (without its line ending). */
  text: string;
  reason: AdsTxtErrorReason;
}

export interface AdsTxtParseResult {
  records: AdsTxtRecord[];
  variables: AdsTxtVariable[];
  errors: AdsTxtLineError[];
}

/** What a publisher's file must contain for an account, see `hasAdsTxtLine`. */
export interface AdsTxtExpectedLine {
  domain: string;
  accountId: string;
  relationship: AdsTxtRelationship;
}

/** Options of `adsTxtLinesFor`. */
export interface AdsTxtLinesOptions {
  /** Our exchange's domain (the advertising system, field #1). */
  domain: string;
  /** The publisher's seller id with us (field #2, the same id as in our sellers.json). */
  sellerId: string;
  relationship: AdsTxtRelationship;
  certificationAuthorityId?: string | null;
  ownerDomain?: string | null;
  managerDomain?: string | null;
}

// Labels of letters, digits and hyphens (not at either end, at most 63 characters), at least two labels, the
// last one starting with a letter (so an IP address is not a domain), 253 characters at most.
const LABEL = '[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?';
const DOMAIN_RE = new RegExp(`^(?=.{1,253}$)(?:${LABEL}\\.)+[a-z](?:[a-z0-9-]{0,61}[a-z0-9])?$`);
// `NAME=value`: a bare word before the first `=`. A data record does not match: its first field, a domain, has
// a dot, which a name cannot have.
const VARIABLE_RE = /^([A-Za-z][A-Za-z0-9_-]*)\s*=(.*)$/;

function isDomain(value: string): boolean {
  return DOMAIN_RE.test(value);
}

function normalizeRelationship(value: string): AdsTxtRelationship | null {
  const upper = value.trim().toUpperCase();
  return (ADS_TXT_RELATIONSHIPS as readonly string[]).includes(upper) ? (upper as AdsTxtRelationship) : null;
}

/**
 * Parses the text of an ads.txt file into its data records and variables. Malformed lines are returned in
 * `errors` (with their line number and reason) and skipped; the function never throws.
 */
export function parseAdsTxt(text: string): AdsTxtParseResult {
  const result: AdsTxtParseResult = { records: [], variables: [], errors: [] };
  const lines = text.replace(/^\uFEFF/, '').split(/\r?\n/);
  lines.forEach((raw, index) => {
    const line = index + 1;
    const hash = raw.indexOf('#');
    const content = (hash === -1 ? raw : raw.slice(0, hash)).trim();
    if (content === '') return;
    const fail = (reason: AdsTxtErrorReason) => result.errors.push({ line, text: raw, reason });

    const variable = VARIABLE_RE.exec(content);
    if (variable) {
      const name = variable[1]!.toUpperCase();
      if (!(ADS_TXT_VARIABLES as readonly string[]).includes(name)) return fail('unknown_variable');
      result.variables.push({ line, name: name as AdsTxtVariableName, value: variable[2]!.trim() });
      return;
    }

    const semicolon = content.indexOf(';');
    const recordPart = semicolon === -1 ? content : content.slice(0, semicolon);
    const extension = semicolon === -1 ? '' : content.slice(semicolon + 1).trim();
    const fields = recordPart.split(',').map((field) => field.trim());
    if (fields.length < 3) return fail('too_few_fields');
    const [rawDomain, accountId, rawRelationship, certificationAuthorityId] = fields as [
      string,
      string,
      string,
      string | undefined,
    ];
    const domain = rawDomain.toLowerCase();
    if (!isDomain(domain)) return fail('bad_domain');
    if (accountId === '') return fail('empty_account_id');
    const relationship = normalizeRelationship(rawRelationship);
    if (!relationship) return fail('bad_relationship');
    result.records.push({
      line,
      domain,
      accountId,
      relationship,
      certificationAuthorityId: certificationAuthorityId || null,
      extension: extension || null,
    });
  });
  return result;
}

/**
 * The first record of a parsed file for this account: same advertising system domain (case-insensitive),
 * same account id (exact, surrounding whitespace ignored) and same relationship. Null when there is none.
 */
export function findAdsTxtLine(parsed: AdsTxtParseResult, expected: AdsTxtExpectedLine): AdsTxtRecord | null {
  const domain = expected.domain.trim().toLowerCase();
  const accountId = expected.accountId.trim();
  const relationship = expected.relationship.toUpperCase();
  return (
    parsed.records.find(
      (record) =>
        record.domain === domain && record.accountId === accountId && record.relationship === relationship,
    ) ?? null
  );
}

/** Whether a parsed file authorises this account (see `findAdsTxtLine` for how lines are matched). */
export function hasAdsTxtLine(parsed: AdsTxtParseResult, expected: AdsTxtExpectedLine): boolean {
  return findAdsTxtLine(parsed, expected) !== null;
}

/** A value that cannot be written into an ads.txt field: empty, or holding a separator or line break. */
function checkField(what: string, value: string): string {
  const trimmed = value.trim();
  if (trimmed === '' || /[,;#\r\n]/.test(trimmed)) {
    throw new Error(`ads.txt: ${what} ${JSON.stringify(value)} cannot be written into an ads.txt field`);
  }
  return trimmed;
}

function checkDomain(what: string, value: string): string {
  const domain = value.trim().toLowerCase();
  if (!isDomain(domain)) throw new Error(`ads.txt: ${what} ${JSON.stringify(value)} is not a domain name`);
  return domain;
}

/**
 * The lines a publisher should put in its ads.txt to authorise its account with our exchange:
 * `<domain>, <sellerId>, <relationship>[, <certificationAuthorityId>]`, then `OWNERDOMAIN=<…>` and
 * `MANAGERDOMAIN=<…>` when given. Domains are lower-cased. Throws when a value could not be read back
 * (a domain that is not a hostname, an empty id or one holding `,` `;` `#` or a line break), so that the
 * lines always parse back with `parseAdsTxt` without errors. The spec lets a file have one OWNERDOMAIN (only the
 * first counts): the publisher should not add it again if its file already declares one.
 */
export function adsTxtLinesFor(opts: AdsTxtLinesOptions): string[] {
  const domain = checkDomain('domain', opts.domain);
  const sellerId = checkField('seller id', opts.sellerId);
  const relationship = normalizeRelationship(opts.relationship);
  if (!relationship) throw new Error(`ads.txt: unknown relationship ${JSON.stringify(opts.relationship)}`);
  const fields = [domain, sellerId, relationship];
  const certificationAuthorityId = opts.certificationAuthorityId?.trim();
  if (certificationAuthorityId)
    fields.push(checkField('certification authority id', certificationAuthorityId));
  const lines = [fields.join(', ')];
  if (opts.ownerDomain?.trim()) lines.push(`OWNERDOMAIN=${checkDomain('owner domain', opts.ownerDomain)}`);
  if (opts.managerDomain?.trim())
    lines.push(`MANAGERDOMAIN=${checkDomain('manager domain', opts.managerDomain)}`);
  return lines;
}
