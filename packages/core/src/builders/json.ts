/**
 * The JSON builder (`/utils/jsonbuilder`; docs/decisions/039-json-and-adunit-builders.md): a JSON
 * document edited against a JSON Schema chosen by name — the OpenRTB 2.6 BidRequest, Imp and Pmp
 * objects (the IAB Tech Lab's files in ../standards/openrtb-2.6/) and our own demand partner and ad
 * unit configurations (json-schemas.ts). The configuration is `{ schema, document }`; the output is
 * the document as pretty JSON. Schema validation (Ajv) runs in the API only: the web app's CSP
 * forbids the code generation Ajv needs, and the schemas stay out of the screen's chunk
 * (`GET /v1/builders/json/schemas` serves them to the form).
 *
 * This module also places things in JSON text for both builders that read JSON (this one and the
 * ad unit generator): syntax errors with line and column (jsonc-parser), and a JSON pointer's line.
 * jsonc-parser is imported from its ES module build: its default (UMD) build requires its own
 * files at run time, which the API's esbuild bundle cannot follow (decision 039).
 */
import { findNodeAtLocation, getNodeValue, parseTree, printParseErrorCode, type Node, type ParseError } from 'jsonc-parser/lib/esm/main.js';
import { z } from 'zod';
import type { BuilderDefinition, BuilderIssue } from './common.ts';

export const JSON_SCHEMA_NAMES = [
  'openrtb-2.6/BidRequest',
  'openrtb-2.6/Imp',
  'openrtb-2.6/Pmp',
  'backoffice/partner-config',
  'backoffice/ad-unit-config',
] as const;
export type JsonSchemaName = (typeof JSON_SCHEMA_NAMES)[number];

/** The i18n slug of each schema: `json_builder.schema.<slug>.title` and `.description`. */
export const JSON_SCHEMA_SLUGS: Record<JsonSchemaName, string> = {
  'openrtb-2.6/BidRequest': 'openrtb_bid_request',
  'openrtb-2.6/Imp': 'openrtb_imp',
  'openrtb-2.6/Pmp': 'openrtb_pmp',
  'backoffice/partner-config': 'partner_config',
  'backoffice/ad-unit-config': 'ad_unit_config',
};

export const jsonSchemaTitleKey = (name: JsonSchemaName) => `json_builder.schema.${JSON_SCHEMA_SLUGS[name]}.title`;
export const jsonSchemaDescriptionKey = (name: JsonSchemaName) => `json_builder.schema.${JSON_SCHEMA_SLUGS[name]}.description`;

export type JsonValue = string | number | boolean | null | JsonValue[] | { [key: string]: JsonValue };

export interface JsonBuilderConfig {
  schema: JsonSchemaName;
  document: JsonValue;
}

/** What `GET /v1/builders/json/schemas` answers per schema (title and description in the caller's language). */
export interface JsonSchemaEntry {
  name: JsonSchemaName;
  title: string;
  description: string;
  /** The JSON Schema itself (draft-07 keywords; an OpenRTB `$ref` names a sibling object's file, e.g. `Banner.json`). */
  schema: Record<string, unknown>;
}

// ---------------------------------------------------------------------------------------------
// Places in JSON text

/** 1-based line and column of an offset. */
export function lineColumnAt(text: string, offset: number): { line: number; column: number } {
  let line = 1;
  let start = 0;
  const end = Math.min(Math.max(offset, 0), text.length);
  for (let i = 0; i < end; i++)
    if (text.charCodeAt(i) === 10) {
      line++;
      start = i + 1;
    }
  return { line, column: end - start + 1 };
}

/** jsonc-parser's error codes as our message keys (json_builder.syntax.*). */
const SYNTAX_KEYS: Record<string, string> = {
  InvalidSymbol: 'json_builder.syntax.invalid_symbol',
  InvalidNumberFormat: 'json_builder.syntax.invalid_number',
  PropertyNameExpected: 'json_builder.syntax.property_name_expected',
  ValueExpected: 'json_builder.syntax.value_expected',
  ColonExpected: 'json_builder.syntax.colon_expected',
  CommaExpected: 'json_builder.syntax.comma_expected',
  CloseBraceExpected: 'json_builder.syntax.close_brace_expected',
  CloseBracketExpected: 'json_builder.syntax.close_bracket_expected',
  EndOfFileExpected: 'json_builder.syntax.end_expected',
  InvalidCommentToken: 'json_builder.syntax.comment',
  UnexpectedEndOfComment: 'json_builder.syntax.comment',
  UnexpectedEndOfString: 'json_builder.syntax.unterminated_string',
  UnexpectedEndOfNumber: 'json_builder.syntax.invalid_number',
  InvalidUnicode: 'json_builder.syntax.invalid_escape',
  InvalidEscapeCharacter: 'json_builder.syntax.invalid_escape',
  InvalidCharacter: 'json_builder.syntax.invalid_character',
};

/**
 * The first syntax error as an issue at its line and column (`base`: where the parsed text starts
 * in `text`). Only the first: the parser's later errors mostly follow from it.
 */
export function jsonSyntaxIssues(text: string, errors: readonly ParseError[], base = 0): BuilderIssue[] {
  return errors.slice(0, 1).map((e) => {
    const name = printParseErrorCode(e.error);
    const at = lineColumnAt(text, base + e.offset);
    return {
      severity: 'error',
      path: '',
      key: SYNTAX_KEYS[name] ?? 'json_builder.syntax.invalid_symbol',
      params: { line: at.line, column: at.column },
      text: `${name} at line ${at.line}, column ${at.column}`,
      line: at.line,
      column: at.column,
      source: 'syntax',
    };
  });
}

/** Strict JSON (no comments, no trailing commas), with its tree for locating paths. */
export function readJson(text: string): { value?: JsonValue; tree?: Node; issues: BuilderIssue[] } {
  const errors: ParseError[] = [];
  const tree = parseTree(text, errors, { disallowComments: true, allowTrailingComma: false, allowEmptyContent: false });
  if (errors.length > 0 || !tree) {
    const issues = jsonSyntaxIssues(text, errors);
    if (issues.length === 0) issues.push(...jsonSyntaxIssues(text, [{ error: 4 /* ValueExpected */, offset: 0, length: 0 }]));
    return { issues };
  }
  return { value: getNodeValue(tree) as JsonValue, tree, issues: [] };
}

/** A JSON pointer's segments (`/imp/0/banner` → ['imp', 0, 'banner']); RFC 6901 escapes. */
export function pointerSegments(pointer: string): (string | number)[] {
  if (pointer === '' || pointer === '/') return [];
  return pointer
    .replace(/^\//, '')
    .split('/')
    .map((s) => s.replace(/~1/g, '/').replace(/~0/g, '~'))
    .map((s) => (/^(0|[1-9]\d*)$/.test(s) ? Number(s) : s));
}

export function segmentsPointer(segments: readonly (string | number)[]): string {
  return segments.map((s) => `/${String(s).replace(/~/g, '~0').replace(/\//g, '~1')}`).join('');
}

/**
 * Where a JSON pointer is in a parsed tree, as an offset: a property's key (so the marker sits on
 * `"w": …`), an array item's value; for a path that does not exist (a missing required field), its
 * deepest existing ancestor.
 */
export function pointerOffset(root: Node, pointer: string): number {
  const segments = pointerSegments(pointer);
  for (let n = segments.length; n > 0; n--) {
    const node = findNodeAtLocation(root, segments.slice(0, n));
    if (node) return node.parent?.type === 'property' ? node.parent.offset : node.offset;
  }
  return root.offset;
}

/** A JSON pointer's line and column in the text (see `pointerOffset`). */
export function locatePointer(text: string, pointer: string, tree?: Node): { line: number; column: number } | undefined {
  const root = tree ?? parseTree(text, [], { disallowComments: true });
  return root ? lineColumnAt(text, pointerOffset(root, pointer)) : undefined;
}

// ---------------------------------------------------------------------------------------------
// The builder

/**
 * The schema a document most likely follows, when the code arrives without a chosen schema
 * (an integration that posts only code): a request has `imp`, a Pmp has `deals` or
 * `private_auction`, our partner configuration an `endpoint_url`, our ad unit configuration a
 * `media_type`; anything else is read as an Imp.
 */
export function inferJsonSchema(document: unknown): JsonSchemaName {
  if (document === null || typeof document !== 'object' || Array.isArray(document)) return 'openrtb-2.6/Imp';
  const has = (k: string) => Object.prototype.hasOwnProperty.call(document, k);
  if (has('imp')) return 'openrtb-2.6/BidRequest';
  if (has('deals') && !has('endpoint_url') && !has('media_type')) return 'openrtb-2.6/Pmp';
  if (has('private_auction')) return 'openrtb-2.6/Pmp';
  if (has('endpoint_url') || has('openrtb_version') || has('timeout_ms')) return 'backoffice/partner-config';
  if (has('media_type') || has('ad_unit')) return 'backoffice/ad-unit-config';
  return 'openrtb-2.6/Imp';
}

export const jsonBuilderConfigSchema = z.strictObject({
  schema: z.enum(JSON_SCHEMA_NAMES, { error: 'json_builder.schema_unknown' }),
  document: z.json({ error: 'json_builder.document_invalid' }),
}) as unknown as z.ZodType<JsonBuilderConfig>;

const FILE_NAMES: Record<JsonSchemaName, string> = {
  'openrtb-2.6/BidRequest': 'openrtb-bid-request.json',
  'openrtb-2.6/Imp': 'openrtb-imp.json',
  'openrtb-2.6/Pmp': 'openrtb-pmp.json',
  'backoffice/partner-config': 'partner-config.json',
  'backoffice/ad-unit-config': 'ad-unit-config.json',
};

const EXAMPLES: { name: string; config: JsonBuilderConfig }[] = [
  {
    name: 'OpenRTB 2.6 banner request (news site, Spain, TCF consent)',
    config: {
      schema: 'openrtb-2.6/BidRequest',
      document: {
        id: '4f1c9a2e-7b7d-4d2e-9a51-2f3c8d0b6e11',
        imp: [
          {
            id: '1',
            tagid: 'dl_home_top_970x250',
            banner: { format: [{ w: 970, h: 250 }, { w: 728, h: 90 }], pos: 1, api: [3, 5] },
            bidfloor: 0.85,
            bidfloorcur: 'EUR',
            secure: 1,
          },
        ],
        site: {
          id: 'site-31',
          name: 'Diario Levante Digital',
          domain: 'diariolevante.es',
          page: 'https://www.diariolevante.es/valencia/2026/01/05/puerto-ampliacion.html',
          cat: ['IAB12'],
          publisher: { id: 'pub-1007', name: 'Editorial Levante SL', domain: 'diariolevante.es' },
        },
        device: {
          ua: 'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0 Safari/537.36',
          ip: '83.45.112.0',
          devicetype: 2,
          language: 'es',
          geo: { country: 'ESP', region: 'VC', city: 'Valencia', type: 2 },
        },
        user: { id: 'u-8c1f0e', consent: 'CQH0vQAQH0vQAAHABBENBWFsAP_gAEPgAAAAKYtV_G__bWlr8X73aftkeY1P9_h77sQxBhfJE-4FzLvW_JwXx2ExNA36tqIKmRIEu3bBIQNlHJDUTVCgaogVryDMakWcoTNKJ6BkiFMRO2dYCF5vmQtj-QKY5vr991dx2B-t7dr83dzyz4VHn3a5_2a0WJCdA5-tDfv9bROb-9IOd_x8v4v8_F_rE2_eT1l_tevp7D9-cts7_XW-9_fff79Ll_-mBwUcALMNCogDLIkJCDQMIIEAKgrCAigQAAAAkDRAQAmDAp2BgEusJEAIAUAAwQAgABRkACAAASABCIAIACgQAAQCBQAAgAACAQAAgAAAAAAAAAAAQAAAAAAAAAQAAAAAAAA' },
        regs: { gdpr: 1 },
        source: {
          tid: '9b2f3e1a-5c4d-4e8f-a7b6-1d2c3e4f5a6b',
          schain: { ver: '1.0', complete: 1, nodes: [{ asi: 'exchange.example', sid: 'pub-1007', hp: 1 }] },
        },
        at: 1,
        tmax: 450,
        cur: ['EUR', 'USD'],
        bcat: ['IAB25', 'IAB26'],
      },
    },
  },
  {
    name: 'OpenRTB 2.6 video imp (instream pre-roll, 16:9)',
    config: {
      schema: 'openrtb-2.6/Imp',
      document: {
        id: '1',
        tagid: 'dl_video_preroll',
        video: {
          mimes: ['video/mp4', 'video/webm', 'application/javascript'],
          minduration: 5,
          maxduration: 30,
          protocols: [2, 3, 5, 6, 7, 8],
          w: 640,
          h: 360,
          startdelay: 0,
          plcmt: 1,
          linearity: 1,
          skip: 1,
          skipafter: 5,
          playbackmethod: [1],
          api: [2, 7],
          pos: 1,
        },
        bidfloor: 4.5,
        bidfloorcur: 'USD',
        secure: 1,
      },
    },
  },
  {
    name: 'OpenRTB 2.6 PMP with two deals',
    config: {
      schema: 'openrtb-2.6/Pmp',
      document: {
        private_auction: 1,
        deals: [
          { id: 'NMB-PMP-0042', bidfloor: 2.5, bidfloorcur: 'USD', at: 1, wseat: ['nimbus-seat-12'], wadomain: ['iberiatravel.es'] },
          { id: 'HLX-PG-2026-Q1', bidfloor: 6, bidfloorcur: 'EUR', at: 3, guar: 1 },
        ],
      },
    },
  },
  {
    name: 'Partner configuration: Helios DSP (OpenRTB 2.6, banner and video)',
    config: {
      schema: 'backoffice/partner-config',
      document: {
        name: 'Helios DSP',
        type: 'DSP',
        status: 'live',
        endpoint_url: 'https://rtb.helios-dsp.example/openrtb2/auction',
        openrtb_version: '2.6',
        gzip: true,
        timeout_ms: 300,
        qps_cap: 12000,
        media_types: ['banner', 'video'],
        environments: ['site', 'app'],
        sizes: ['300x250', '728x90', '320x50', '640x360'],
        consent_frameworks: ['tcf_v2', 'gpp'],
        geo_allow: ['ES', 'PT', 'FR', 'IT'],
        geo_deny: [],
        default_floor: '0.4500',
        floor_currency: 'USD',
        revenue_share_pct: '18.00',
        seller_id_at_partner: 'bo-exchange-7781',
        partner_domain: 'helios-dsp.example',
        deals: [{ id: 'HLX-PG-2026-Q1', name: 'Helios Q1 guaranteed video', type: 'pg', bidfloor: '6.0000', bidfloorcur: 'EUR', at: 3, wseat: [], wadomain: [] }],
      },
    },
  },
  {
    name: 'Ad unit configuration: homepage billboard',
    config: {
      schema: 'backoffice/ad-unit-config',
      document: {
        name: 'dl_home_top_970x250',
        publisher: 'Editorial Levante SL',
        site: 'diariolevante.es',
        environment: 'web',
        media_type: 'banner',
        sizes: ['970x250', '728x90'],
        floor: { cpm: '0.8500', currency: 'EUR', type: 'hard' },
        demand_partners: [
          { name: 'Helios DSP', enabled: true },
          { name: 'Nimbus Exchange', enabled: true },
        ],
        deals: ['NMB-PMP-0042'],
        refresh: { enabled: true, interval_s: 60 },
        lazy_load: false,
      },
    },
  },
];

function parseJsonDocument(code: string, current?: JsonBuilderConfig): { config?: JsonBuilderConfig; issues: BuilderIssue[] } {
  const read = readJson(code);
  if (read.value === undefined) return { issues: read.issues };
  return { config: { schema: current?.schema ?? inferJsonSchema(read.value), document: read.value }, issues: [] };
}

/**
 * The JSON builder. `parse(code, current)` keeps the current configuration's schema (the code
 * holds only the document); without one it infers it (`inferJsonSchema`).
 */
export const jsonBuilder: BuilderDefinition<JsonBuilderConfig> = {
  kind: 'json',
  subjects: ['none', 'partner', 'ad_unit', 'publisher'],
  configSchema: jsonBuilderConfigSchema,
  defaults: () => ({
    schema: 'openrtb-2.6/Imp',
    document: { id: '1', tagid: 'homepage-top', banner: { format: [{ w: 300, h: 250 }] }, bidfloor: 0.5, bidfloorcur: 'USD', secure: 1 },
  }),
  render: (config) => ({
    code: `${JSON.stringify(config.document, null, 2)}\n`,
    language: 'json',
    filename: FILE_NAMES[config.schema] ?? 'document.json',
    mime: 'application/json',
    issues: [],
  }),
  parse: parseJsonDocument,
  examples: () => structuredClone(EXAMPLES),
};
