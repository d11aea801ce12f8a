/**
 * What every builder shares (issue 25; docs/decisions/037-builders.md): the kinds, what a builder
 * produces, the problems it reports, and the saved versions' shapes. Each builder lives in its own
 * module next to this one (vast.ts, json.ts, jstag.ts, playon.ts, adunit.ts, sdk.ts,
 * app-tracking.ts) and exports a `BuilderDefinition`: the same pure code renders the output in
 * the browser (live, as the form changes) and in the API (`POST /v1/builders/:kind/render`), so
 * an integration that calls the API gets exactly what the screen shows.
 */
import { z } from 'zod';

export const BUILDER_KINDS = ['json', 'jstag', 'playon', 'vast', 'adunit', 'sdk', 'app-tracking'] as const;
export type BuilderKind = (typeof BUILDER_KINDS)[number];
export const builderKindSchema = z.enum(BUILDER_KINDS);

/**
 * What a saved version belongs to: a publisher, an ad unit, a demand partner, or an app (a site
 * whose environment is app). 'none' for builders used without one (the JSON builder's OpenRTB
 * fragments).
 */
export const BUILDER_SUBJECTS = ['publisher', 'ad_unit', 'partner', 'app', 'none'] as const;
export type BuilderSubject = (typeof BUILDER_SUBJECTS)[number];
export const builderSubjectSchema = z.enum(BUILDER_SUBJECTS);

/** The ACL resource of each builder's API (packages/core/src/routes.ts gives the screens the same). */
export const BUILDER_PERMISSION: Record<BuilderKind, '/v1/builders' | '/v1/sdk'> = {
  json: '/v1/builders',
  jstag: '/v1/builders',
  playon: '/v1/builders',
  vast: '/v1/builders',
  adunit: '/v1/builders',
  sdk: '/v1/sdk',
  'app-tracking': '/v1/sdk',
};

/** The code view's language (the editor's highlighting and the download's type). */
export type BuilderLanguage = 'json' | 'xml' | 'javascript' | 'html';

/**
 * One problem with a configuration or its output. `path` names where it is: a form field path
 * in the configuration (`creatives.0.media_files.1.url`, shown next to that field) or, for
 * problems found in the code view, a JSON pointer / XML element path; `line` and `column`
 * (1-based) place it in the code view when known. `key` is an i18n key of packages/core with
 * `params`; `text` is a message that comes from a standard's validator (Ajv, the XSD) as it
 * is, in English, with the element or path named.
 */
export interface BuilderIssue {
  severity: 'error' | 'warning';
  path: string;
  key?: string;
  params?: Record<string, string | number>;
  text?: string;
  line?: number;
  column?: number;
  /** Who found it: the builder's own rules, the code parser, or the standard's validator. */
  source: 'rules' | 'syntax' | 'schema';
}

/** What a builder renders from a configuration. */
export interface BuilderOutput {
  /** The code: what the publisher pastes or the integration stores. */
  code: string;
  language: BuilderLanguage;
  /** The download's file name (no path) and content type. */
  filename: string;
  mime: string;
  /** Problems the builder's own rules found (the API adds the standard's validator's). */
  issues: BuilderIssue[];
}

/**
 * A builder, pure and shared by browser and API. `C` is its configuration (what the form edits
 * and a saved version stores).
 */
export interface BuilderDefinition<C> {
  kind: BuilderKind;
  /** The subjects its versions belong to (the first is the default in the screen). */
  subjects: readonly BuilderSubject[];
  /** The configuration's schema: the API refuses a body that does not match (400, at its path). */
  configSchema: z.ZodType<C>;
  /** A new, valid configuration (what the screen starts from). */
  defaults(): C;
  /** The output for a configuration, with the problems its rules find. Never throws. */
  render(config: C): BuilderOutput;
  /**
   * The configuration back from edited code (the code view drives the form). Answers the issues
   * (syntax errors with line and column) and no config when the code cannot be read; a config
   * with issues when it can be read but breaks a rule. `current`: the configuration the screen
   * holds, for what the code does not carry (the JSON builder's schema); most builders ignore it.
   */
  parse(code: string, current?: C): { config?: C; issues: BuilderIssue[] };
  /**
   * Named, realistic example configurations (at least two): the screen offers them as starting
   * points and the demo seed saves them as versions.
   */
  examples(): { name: string; config: C }[];
}

/** A saved version's name: what people call it ("Homepage 300x250, consent on"). */
export const builderVersionNameSchema = z.string().trim().min(1).max(120);

/** POST /v1/builders/:kind/versions: save the configuration under a name for a subject. */
export const builderVersionBodySchema = z.strictObject({
  subject_type: builderSubjectSchema,
  /** The publisher's, ad unit's, partner's or app's id; null with subject_type 'none'. */
  subject_id: z.number().int().positive().nullable(),
  name: builderVersionNameSchema,
  /** Validated against the builder's configSchema by the API. */
  config: z.unknown(),
});
export type BuilderVersionBody = z.infer<typeof builderVersionBodySchema>;

/** A saved version as the API answers it (the list leaves out config and code). */
export interface BuilderVersionDto {
  id: number;
  kind: BuilderKind;
  subject_type: BuilderSubject;
  subject_id: number | null;
  /** The subject's display name (publisher, ad unit "site / unit", partner, app bundle). */
  subject_name: string | null;
  name: string;
  /** 1, 2, 3… per kind and subject. */
  number: number;
  author: { id: number; name: string } | null;
  created_at: string;
  /** The output when it was saved (the code view's text); in the detail only. */
  code?: string;
  config?: unknown;
}

/** POST /v1/builders/:kind/render: a configuration or code in, the output and every issue out. */
export const builderRenderBodySchema = z.union([
  z.strictObject({ config: z.unknown() }),
  // `config`: the configuration the screen holds, for what the code does not carry (see parse).
  z.strictObject({ code: z.string().max(1_000_000), config: z.unknown().optional() }),
]);
export type BuilderRenderBody = z.infer<typeof builderRenderBodySchema>;

export interface BuilderRenderAnswer {
  /** The configuration (parsed from the code when code was sent); null when the code is unreadable. */
  config: unknown;
  output: BuilderOutput | null;
  /** The builder's rules' issues and the standard's validator's (XSD, JSON Schema). */
  issues: BuilderIssue[];
  /** True when no issue is an error. */
  valid: boolean;
}

// ---------------------------------------------------------------------------------------------
// Added by the shared layer (h0): the versions list, subjects and compare answers, and the
// list's query, shared by the API routes and the screen.

/** Is this text one of the builder kinds? */
export function isBuilderKind(value: unknown): value is BuilderKind {
  return typeof value === 'string' && (BUILDER_KINDS as readonly string[]).includes(value);
}

/** The subjects a saved version can name by id (all but 'none'). */
export const BUILDER_SUBJECTS_WITH_ID = ['publisher', 'ad_unit', 'partner', 'app'] as const;

/** How many subjects the picker's search answers at most. */
export const BUILDER_SUBJECT_MATCHES = 20;
export const BUILDER_VERSIONS_PAGE_SIZE = 20;
/** A second save of the same configuration, name and subject by the same person within this time is the first one (a double click). */
export const BUILDER_SAVE_REPLAY_MS = 10_000;

const queryPage = z.coerce.number({ error: 'error.invalid_value' }).int('error.invalid_value').min(1, 'error.invalid_value').max(100_000, 'error.invalid_value');
const queryId = z
  .string({ error: 'error.invalid_id' })
  .regex(/^[1-9]\d{0,9}$/, 'error.invalid_id')
  .refine((s) => Number(s) <= 2_147_483_647, 'error.invalid_id')
  .transform(Number);

/** GET /v1/builders/:kind/versions: a subject (optional: all of the kind), newest first, paged. */
export const builderVersionListQuerySchema = z
  .strictObject({
    subject_type: builderSubjectSchema.optional(),
    subject_id: queryId.optional(),
    page: queryPage.default(1),
    page_size: queryPage.max(100, 'error.invalid_value').default(BUILDER_VERSIONS_PAGE_SIZE),
  })
  .superRefine((q, ctx) => {
    if (q.subject_id !== undefined && (q.subject_type === undefined || q.subject_type === 'none'))
      ctx.addIssue({ code: 'custom', path: ['subject_id'], message: 'builders.subject_id_without_type' });
  });
export type BuilderVersionListQuery = z.infer<typeof builderVersionListQuerySchema>;

export interface BuilderVersionPage {
  items: BuilderVersionDto[];
  total: number;
  page: number;
  page_size: number;
}

/** GET /v1/builders/:kind/subjects?type=&q= (or &id= for one): the picker's matches. */
export const builderSubjectQuerySchema = z.strictObject({
  type: z.enum(BUILDER_SUBJECTS_WITH_ID),
  q: z.string().trim().max(100, 'error.invalid_value').optional(),
  id: queryId.optional(),
});
export type BuilderSubjectQuery = z.infer<typeof builderSubjectQuerySchema>;

export interface BuilderSubjectOption {
  type: BuilderSubject;
  id: number;
  /** Publisher, partner, app bundle or "site / unit". */
  name: string;
}

/** GET /v1/builders/:kind/compare?a=&b=: both versions (with code and config) and what changed. */
export const builderCompareQuerySchema = z.strictObject({ a: queryId, b: queryId });

export interface BuilderCompareAnswer {
  a: BuilderVersionDto;
  b: BuilderVersionDto;
  /** The configuration paths whose value differs (added, removed or changed), dotted, sorted. */
  changed_paths: string[];
}
