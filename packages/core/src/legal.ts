/**
 * Legal tool (`/utils/legal_tool`, permission `/v1/legal`; docs/decisions/046-legal-tool.md):
 * contract and terms templates with placeholders, immutable numbered versions of their text (both
 * languages), and PDFs generated for a publisher or a demand partner with the placeholders filled
 * from the database. What both sides share lives here: the placeholder catalogue, the template
 * text's syntax and its check, the request schemas, a line diff for comparing versions, and the
 * two resources (templates, generated documents) of the resource layer.
 *
 * Template text, one block per paragraph (blank lines separate blocks):
 *   `# Heading`        a heading, not numbered (a schedule, an annex)
 *   `## Clause title`  a clause, numbered 1, 2, 3…; the paragraphs under it are 1.1, 1.2…
 *   `- item`           an item of a list (not numbered)
 *   anything else      a paragraph; lines of one paragraph are joined with a space
 * Placeholders are `{{group.name}}` (spaces inside the braces allowed) from PLACEHOLDERS; an
 * unknown one, or braces that do not make one, is an error with its line.
 */
import { z } from 'zod';
import { COMMON_FIELDS, defineResource } from './resources/define.ts';

export const LEGAL_RESOURCE = '/v1/legal';
export const LEGAL_LANGUAGES = ['en', 'es'] as const;
export type LegalLanguage = (typeof LEGAL_LANGUAGES)[number];

export const TEMPLATE_KINDS = ['publisher_agreement', 'demand_io', 'terms', 'nda', 'other'] as const;
export type TemplateKind = (typeof TEMPLATE_KINDS)[number];

/** Who a template is written for: a publisher, a demand partner, or either. */
export const TEMPLATE_PARTIES = ['publisher', 'demand_partner', 'any'] as const;
export type TemplateParty = (typeof TEMPLATE_PARTIES)[number];
export const COUNTERPARTY_TYPES = ['publisher', 'demand_partner'] as const;
export type CounterpartyType = (typeof COUNTERPARTY_TYPES)[number];

export const LEGAL_TITLE_MAX = 200;
export const LEGAL_BODY_MAX = 60_000;
export const LEGAL_COMMENT_MAX = 300;
export const LEGAL_VALUE_MAX = 300;

/** What a placeholder's value is: the kind of input that fills it by hand and how it is checked. */
export type PlaceholderType = 'text' | 'date' | 'percent';

/**
 * Where a placeholder's value comes from: our company (the invoice issuer of the counterparty's
 * side), the counterparty (publisher or demand partner) and its company, the commercial terms on
 * the counterparty's row, the document itself (typed for each document), or the system.
 */
export type PlaceholderGroup = 'our' | 'counterparty' | 'deal' | 'contract';

export interface PlaceholderDef {
  key: string;
  group: PlaceholderGroup;
  type: PlaceholderType;
  /** Typed for each document: no record holds it. */
  document?: boolean;
}

export const PLACEHOLDERS: readonly PlaceholderDef[] = [
  { key: 'our.legal_name', group: 'our', type: 'text' },
  { key: 'our.tax_id', group: 'our', type: 'text' },
  { key: 'our.address', group: 'our', type: 'text' },
  { key: 'our.registry', group: 'our', type: 'text' },
  { key: 'our.email', group: 'our', type: 'text' },
  { key: 'our.signatory_name', group: 'our', type: 'text', document: true },
  { key: 'our.signatory_title', group: 'our', type: 'text', document: true },
  { key: 'counterparty.name', group: 'counterparty', type: 'text' },
  { key: 'counterparty.legal_name', group: 'counterparty', type: 'text' },
  { key: 'counterparty.tax_id', group: 'counterparty', type: 'text' },
  { key: 'counterparty.address', group: 'counterparty', type: 'text' },
  { key: 'counterparty.country', group: 'counterparty', type: 'text' },
  { key: 'counterparty.email', group: 'counterparty', type: 'text' },
  { key: 'counterparty.signatory_name', group: 'counterparty', type: 'text' },
  { key: 'counterparty.signatory_title', group: 'counterparty', type: 'text', document: true },
  { key: 'deal.revenue_share', group: 'deal', type: 'percent' },
  { key: 'deal.payment_terms', group: 'deal', type: 'text' },
  { key: 'deal.currency', group: 'deal', type: 'text' },
  { key: 'deal.minimum', group: 'deal', type: 'text' },
  { key: 'contract.start_date', group: 'contract', type: 'date', document: true },
  { key: 'contract.end_date', group: 'contract', type: 'date', document: true },
  { key: 'contract.date', group: 'contract', type: 'date' },
];

export const PLACEHOLDER_GROUPS: readonly PlaceholderGroup[] = ['our', 'counterparty', 'deal', 'contract'];
const BY_KEY = new Map(PLACEHOLDERS.map((p) => [p.key, p]));

export function placeholderDef(key: string): PlaceholderDef | undefined {
  return BY_KEY.get(key);
}

/** What the picker inserts. */
export const placeholderToken = (key: string) => `{{${key}}}`;

/** A problem of a template's text: its message key, the line (1-based) and the placeholder. */
export interface TemplateIssue {
  field: 'title' | 'body';
  language: LegalLanguage;
  key: string;
  line: number;
  placeholder?: string;
}

const TOKEN = /\{\{\s*([^{}]*?)\s*\}\}/g;
const KEY_SHAPE = /^[a-z]+\.[a-z_]+$/;

/** The placeholders of a text and its problems (unknown or malformed placeholders), by line. */
export function scanText(text: string): {
  keys: string[];
  problems: { key: string; line: number; placeholder?: string }[];
} {
  const keys: string[] = [];
  const problems: { key: string; line: number; placeholder?: string }[] = [];
  text.split('\n').forEach((lineText, i) => {
    const line = i + 1;
    let rest = lineText;
    for (const m of lineText.matchAll(TOKEN)) {
      const name = m[1]!;
      if (!KEY_SHAPE.test(name))
        problems.push({ key: 'legal.placeholder_malformed', line, placeholder: name });
      else if (!BY_KEY.has(name))
        problems.push({ key: 'legal.placeholder_unknown', line, placeholder: name });
      else if (!keys.includes(name)) keys.push(name);
      rest = rest.replace(m[0], '');
    }
    // Braces left over after the placeholders: `{{name}` or `{name}}`.
    if (rest.includes('{{') || rest.includes('}}'))
      problems.push({ key: 'legal.placeholder_malformed', line });
  });
  return { keys, problems };
}

export interface TemplateTexts {
  title_en: string;
  title_es: string;
  body_en: string;
  body_es: string;
}

/** Every problem of a version's texts: empty titles or bodies, too long, bad placeholders. */
export function templateIssues(texts: TemplateTexts): TemplateIssue[] {
  const issues: TemplateIssue[] = [];
  for (const language of LEGAL_LANGUAGES) {
    for (const field of ['title', 'body'] as const) {
      const text = texts[`${field}_${language}`] ?? '';
      const max = field === 'title' ? LEGAL_TITLE_MAX : LEGAL_BODY_MAX;
      if (text.trim() === '') {
        issues.push({
          field,
          language,
          key: field === 'title' ? 'legal.title_required' : 'legal.body_required',
          line: 1,
        });
        continue;
      }
      if (text.length > max) issues.push({ field, language, key: 'error.too_long', line: 1 });
      if (field === 'title' && text.includes('\n'))
        issues.push({ field, language, key: 'legal.title_one_line', line: 1 });
      for (const p of scanText(text).problems) issues.push({ field, language, ...p });
    }
  }
  return issues;
}

/** Placeholders a version uses (titles and bodies, both languages), in catalogue order. */
export function usedPlaceholders(texts: TemplateTexts): string[] {
  const used = new Set<string>();
  for (const text of [texts.title_en, texts.title_es, texts.body_en, texts.body_es])
    for (const k of scanText(text ?? '').keys) used.add(k);
  return PLACEHOLDERS.map((p) => p.key).filter((k) => used.has(k));
}

/** Field errors of the issues ({body_en: 'legal.placeholder_unknown'}): the first of each field. */
export function issueErrors(issues: readonly TemplateIssue[]): Record<string, string> {
  const errors: Record<string, string> = {};
  for (const i of issues) errors[`${i.field}_${i.language}`] ??= i.key;
  return errors;
}

// ---- the text's blocks ------------------------------------------------------------------------

export type LegalBlock =
  | { kind: 'heading'; text: string }
  | { kind: 'clause'; number: string; text: string }
  | { kind: 'paragraph'; number: string | null; text: string }
  | { kind: 'item'; text: string };

/** The blocks of a template's text, numbered: clauses 1, 2…, their paragraphs 1.1, 1.2… */
export function parseBlocks(body: string): LegalBlock[] {
  const blocks: LegalBlock[] = [];
  let clause = 0;
  let paragraph = 0;
  let open: string[] = [];
  const flush = () => {
    if (open.length === 0) return;
    const text = open.join(' ').replace(/\s+/g, ' ').trim();
    open = [];
    if (text === '') return;
    paragraph += 1;
    blocks.push({ kind: 'paragraph', number: clause > 0 ? `${clause}.${paragraph}` : null, text });
  };
  for (const raw of body.replace(/\r\n?/g, '\n').split('\n')) {
    const line = raw.trim();
    if (line === '') {
      flush();
      continue;
    }
    const clauseMatch = /^##\s+(.*)$/.exec(line);
    const headingMatch = /^#\s+(.*)$/.exec(line);
    const itemMatch = /^[-*]\s+(.*)$/.exec(line);
    if (clauseMatch) {
      flush();
      clause += 1;
      paragraph = 0;
      blocks.push({ kind: 'clause', number: String(clause), text: clauseMatch[1]!.trim() });
    } else if (headingMatch) {
      flush();
      // A heading ends the numbered clauses (an annex after them starts its own paragraphs).
      clause = 0;
      paragraph = 0;
      blocks.push({ kind: 'heading', text: headingMatch[1]!.trim() });
    } else if (itemMatch) {
      flush();
      blocks.push({ kind: 'item', text: itemMatch[1]!.trim() });
    } else open.push(line);
  }
  flush();
  return blocks;
}

/** A text with its placeholders replaced by their values (the caller checked none is missing). */
export function fillText(text: string, values: Readonly<Record<string, string>>): string {
  return text.replace(TOKEN, (all, name: string) => values[name.trim()] ?? all);
}

// ---- comparing versions ----------------------------------------------------------------------

export type DiffLine = { op: 'same' | 'added' | 'removed'; text: string };

/** A line diff of two texts (longest common subsequence; texts of a few hundred lines). */
export function diffLines(before: string, after: string): DiffLine[] {
  const a = before.split('\n');
  const b = after.split('\n');
  // Cap the table: two very long texts compare as one block removed and one added.
  if (a.length * b.length > 4_000_000)
    return [
      ...a.map((text) => ({ op: 'removed' as const, text })),
      ...b.map((text) => ({ op: 'added' as const, text })),
    ];
  const n = a.length;
  const m = b.length;
  const lcs: Uint32Array[] = Array.from({ length: n + 1 }, () => new Uint32Array(m + 1));
  for (let i = n - 1; i >= 0; i--)
    for (let j = m - 1; j >= 0; j--)
      lcs[i]![j] = a[i] === b[j] ? lcs[i + 1]![j + 1]! + 1 : Math.max(lcs[i + 1]![j]!, lcs[i]![j + 1]!);
  const out: DiffLine[] = [];
  let i = 0;
  let j = 0;
  while (i < n && j < m) {
    if (a[i] === b[j]) {
      out.push({ op: 'same', text: a[i]! });
      i++;
      j++;
    } else if (lcs[i + 1]![j]! >= lcs[i]![j + 1]!) out.push({ op: 'removed', text: a[i++]! });
    else out.push({ op: 'added', text: b[j++]! });
  }
  while (i < n) out.push({ op: 'removed', text: a[i++]! });
  while (j < m) out.push({ op: 'added', text: b[j++]! });
  return out;
}

// ---- values typed for a document ---------------------------------------------------------------

const ISO_DATE = /^(\d{4})-(\d{2})-(\d{2})$/;

export function isIsoDate(v: string): boolean {
  const m = ISO_DATE.exec(v);
  if (!m) return false;
  const d = new Date(Date.UTC(Number(m[1]), Number(m[2]) - 1, Number(m[3])));
  return (
    d.getUTCFullYear() === Number(m[1]) &&
    d.getUTCMonth() === Number(m[2]) - 1 &&
    d.getUTCDate() === Number(m[3])
  );
}

/** The problem of a value typed by hand for a placeholder (a message key), or null. */
export function manualValueProblem(key: string, raw: string): string | null {
  const def = BY_KEY.get(key);
  if (!def) return 'legal.placeholder_unknown';
  const value = raw.trim();
  if (value === '') return 'error.required';
  if (value.length > LEGAL_VALUE_MAX) return 'error.too_long';
  // Control characters (a pasted tab or line break) do not print in a one-line value.
  if ([...value].some((c) => c.charCodeAt(0) < 0x20)) return 'legal.value_invalid';
  if (def.type === 'date' && !isIsoDate(value)) return 'legal.value_date_invalid';
  if (def.type === 'percent') {
    if (!/^\d{1,3}(\.\d{1,2})?$/.test(value) || Number(value) <= 0 || Number(value) > 100)
      return 'legal.value_percent_invalid';
  }
  return null;
}

/** Field errors of typed values, as `values.<key>` (dates in order: the end not before the start). */
export function manualValuesErrors(
  values: Readonly<Record<string, string>>,
  known: Readonly<Record<string, string | null>> = {},
): Record<string, string> {
  const errors: Record<string, string> = {};
  for (const [key, value] of Object.entries(values)) {
    const problem = manualValueProblem(key, value);
    if (problem) errors[`values.${key}`] = problem;
  }
  const start = values['contract.start_date']?.trim() ?? known['contract.start_date'] ?? null;
  const end = values['contract.end_date']?.trim() ?? known['contract.end_date'] ?? null;
  if (
    start &&
    end &&
    isIsoDate(start) &&
    isIsoDate(end) &&
    end < start &&
    !errors['values.contract.end_date']
  )
    errors['values.contract.end_date'] = 'legal.end_before_start';
  return errors;
}

// ---- request and answer shapes -----------------------------------------------------------------

const text = (max: number) => z.string({ error: 'error.required' }).max(max, 'error.too_long');

export const templateVersionBodySchema = z.strictObject({
  title_en: text(LEGAL_TITLE_MAX),
  title_es: text(LEGAL_TITLE_MAX),
  body_en: text(LEGAL_BODY_MAX),
  body_es: text(LEGAL_BODY_MAX),
  comment: z
    .string({ error: 'error.required' })
    .trim()
    .min(1, 'legal.comment_required')
    .max(LEGAL_COMMENT_MAX, 'error.too_long'),
  /** The version the editor started from (null for a template without versions): a newer one answers 409. */
  base_version: z
    .number({ error: 'error.invalid_value' })
    .int('error.invalid_value')
    .min(1, 'error.invalid_value')
    .nullable(),
});
export type TemplateVersionBody = z.infer<typeof templateVersionBodySchema>;

export const restoreVersionBodySchema = z.strictObject({
  comment: z.string().trim().max(LEGAL_COMMENT_MAX, 'error.too_long').optional(),
  base_version: z
    .number({ error: 'error.invalid_value' })
    .int('error.invalid_value')
    .min(1, 'error.invalid_value'),
});

const counterpartyFields = {
  version: z
    .number({ error: 'legal.version_required' })
    .int('error.invalid_value')
    .min(1, 'error.invalid_value')
    .max(1_000_000, 'error.invalid_value'),
  language: z.enum(LEGAL_LANGUAGES, { error: 'error.invalid_value' }),
  counterparty_type: z.enum(COUNTERPARTY_TYPES, { error: 'error.invalid_value' }),
  counterparty_id: z
    .number({ error: 'legal.counterparty_required' })
    .int('error.invalid_id')
    .min(1, 'error.invalid_id')
    .max(2_147_483_647, 'error.invalid_id'),
};

export const checkBodySchema = z.strictObject(counterpartyFields);
export type CheckBody = z.infer<typeof checkBodySchema>;

export const generateBodySchema = z.strictObject({
  template_id: z
    .number({ error: 'error.invalid_id' })
    .int('error.invalid_id')
    .min(1, 'error.invalid_id')
    .max(2_147_483_647, 'error.invalid_id'),
  ...counterpartyFields,
  /** Values typed for this document, for placeholders the records do not fill. */
  values: z
    .record(
      z.string().max(60),
      z.string({ error: 'error.invalid_value' }).max(LEGAL_VALUE_MAX * 2, 'error.too_long'),
    )
    .default({}),
  /** The client's id of this request: a retried or double-clicked one answers the same document. */
  request_id: z.uuid({ error: 'error.invalid_value' }),
});
export type GenerateBody = z.input<typeof generateBodySchema>;

/** Where a value comes from (the record that holds it, or the document). */
export interface ValueSource {
  type: 'issuer' | 'publisher' | 'demand_partner' | 'company' | 'document' | 'system';
  id: number | null;
  /** The record's name (a company's legal name…), when there is a record. */
  name: string | null;
  /** The record's field that holds the value. */
  field: string | null;
  /** Where to fix it in the app, under /{lang} (null: no screen edits it). */
  link: string | null;
}

export interface ResolvedPlaceholder {
  key: string;
  type: PlaceholderType;
  /** The value as printed (formatted in the document's language), or null when missing. */
  value: string | null;
  missing: boolean;
  /** Why it is missing: a message key (`legal.missing.no_company`…). */
  reason: string | null;
  source: ValueSource;
}

export interface CheckAnswer {
  template_id: number;
  version: number;
  language: LegalLanguage;
  counterparty: { type: CounterpartyType; id: number; name: string };
  placeholders: ResolvedPlaceholder[];
  missing: ResolvedPlaceholder[];
}

export interface TemplateVersionDto extends TemplateTexts {
  id: number;
  template_id: number;
  number: number;
  comment: string;
  /** The version this one restored (null when written). */
  restored_from: number | null;
  author: { id: number | null; name: string | null };
  created_at: string;
  placeholders: string[];
}

export type TemplateVersionSummary = Omit<TemplateVersionDto, keyof TemplateTexts | 'placeholders'>;

export interface CounterpartyOption {
  type: CounterpartyType;
  id: number;
  name: string;
  side: string;
  company: string | null;
}

export interface LegalDocumentAnswer {
  id: number;
  file_name: string;
  sha256: string;
  size: number;
  already: boolean;
}

// ---- the resource layer ------------------------------------------------------------------------

export const legalTemplateFieldsSchema = z.strictObject({
  name: z
    .string({ error: 'error.required' })
    .trim()
    .min(1, 'error.required')
    .max(LEGAL_TITLE_MAX, 'error.too_long'),
  kind: z.enum(TEMPLATE_KINDS, { error: 'error.invalid_value' }),
  party: z.enum(TEMPLATE_PARTIES, { error: 'error.invalid_value' }),
  description: z
    .union([z.string(), z.null()])
    .transform((v) => (v === null ? null : v.trim() || null))
    .refine((v) => v === null || v.length <= 1000, 'error.too_long')
    .default(null),
});

export const legalTemplates = defineResource({
  name: 'legal_templates',
  entity: 'legal_template',
  path: '/v1/legal/templates',
  acl: LEGAL_RESOURCE,
  schema: legalTemplateFieldsSchema,
  fields: {
    id: COMMON_FIELDS.id,
    name: { label: 'legal.template.name', type: 'text', list: true, sort: true, filter: 'contains' },
    kind: {
      label: 'legal.template.kind',
      type: 'enum',
      options: TEMPLATE_KINDS,
      list: true,
      sort: true,
      filter: 'in',
    },
    party: {
      label: 'legal.template.party',
      type: 'enum',
      options: TEMPLATE_PARTIES,
      list: true,
      filter: 'in',
    },
    description: { label: 'legal.template.description', type: 'text' },
    current_version: {
      label: 'legal.template.current_version',
      type: 'number',
      list: true,
      sort: true,
      readOnly: true,
    },
    version: COMMON_FIELDS.version,
    created_at: { ...COMMON_FIELDS.created_at, filter: undefined },
    updated_at: COMMON_FIELDS.updated_at,
  },
  titleField: 'name',
  defaultSort: 'name',
  exportName: 'legal_templates',
});

/** Generated documents: read through the layer; made only by the generate command. */
export const legalDocuments = defineResource({
  name: 'legal_documents',
  entity: 'legal_document',
  path: '/v1/legal/documents',
  acl: LEGAL_RESOURCE,
  schema: z.strictObject({}),
  writes: [],
  fields: {
    id: COMMON_FIELDS.id,
    counterparty_name: {
      label: 'legal.document.counterparty',
      type: 'text',
      list: true,
      sort: true,
      filter: 'contains',
    },
    counterparty_type: {
      label: 'legal.document.counterparty_type',
      type: 'enum',
      options: COUNTERPARTY_TYPES,
      list: true,
      filter: 'in',
    },
    template_id: {
      label: 'legal.document.template',
      type: 'ref',
      ref: 'legal_templates',
      list: true,
      filter: 'in',
    },
    template_version: { label: 'legal.document.template_version', type: 'number', list: true, sort: true },
    language: {
      label: 'legal.document.language',
      type: 'enum',
      options: LEGAL_LANGUAGES,
      list: true,
      filter: 'in',
    },
    manual_count: { label: 'legal.document.manual_count', type: 'number', list: true },
    author_id: { label: 'legal.document.author', type: 'ref', ref: 'users', list: true },
    file_name: { label: 'legal.document.file_name', type: 'text' },
    sha256: { label: 'legal.document.sha256', type: 'text' },
    created_at: {
      label: 'legal.document.created_at',
      type: 'datetime',
      list: true,
      sort: true,
      filter: 'range',
      readOnly: true,
    },
  },
  titleField: 'counterparty_name',
  defaultSort: '-created_at',
  exportName: 'legal_documents',
});
