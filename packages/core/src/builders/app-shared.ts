/**
 * What the SDK builder (sdk.ts) and the app tracking manager (app-tracking.ts) share
 * (docs/decisions/041-sdk-and-app-tracking.md): the app platforms, the rules for an app's bundle
 * and store id, the SKAdNetwork id list (Apple's `SKAdNetworkItems`), and the plumbing that turns
 * JSON text into a configuration with its problems at the right line (jsonc-parser), and zod issues
 * into BuilderIssues.
 */
// The ES module build: the package's default (UMD) build requires its own files at run time, which
// the API's esbuild bundle cannot follow.
import { findNodeAtLocation, parseTree, printParseErrorCode, type Node, type ParseError } from 'jsonc-parser/lib/esm/main.js';
import type { z } from 'zod';
import { issuesToErrors } from '../validation-errors.ts';
import type { BuilderIssue } from './common.ts';

export const APP_PLATFORMS = ['ios', 'android'] as const;
export type AppPlatform = (typeof APP_PLATFORMS)[number];

/**
 * An iOS bundle id (CFBundleIdentifier: letters, digits, hyphens and periods, reverse-DNS) and an
 * Android application id (Java package rules: segments start with a letter; letters, digits, `_`).
 */
const IOS_BUNDLE = /^[A-Za-z0-9-]+(\.[A-Za-z0-9-]+)+$/;
const ANDROID_PACKAGE = /^[a-zA-Z][a-zA-Z0-9_]*(\.[a-zA-Z][a-zA-Z0-9_]*)+$/;
/** The App Store id as store URLs write it (`apps.apple.com/app/id1234567890`). */
const APP_STORE_ID = /^id\d{6,12}$/;

/** The bundle's problems (required, its platform's format), at `path`. */
export function bundleIssues(platform: AppPlatform, bundle: string, path: string): BuilderIssue[] {
  if (bundle.trim() === '') return [{ severity: 'error', path, key: 'app_tracking.bundle_required', source: 'rules' }];
  const ok = platform === 'ios' ? IOS_BUNDLE.test(bundle) : ANDROID_PACKAGE.test(bundle);
  return ok ? [] : [{ severity: 'error', path, key: `app_tracking.bundle_format_${platform}`, params: { bundle }, source: 'rules' }];
}

/** The store id's problems: iOS `id` + digits (required); Android the package name, when given. */
export function storeIdIssues(platform: AppPlatform, storeId: string, bundle: string, path: string): BuilderIssue[] {
  if (platform === 'ios') {
    if (storeId.trim() === '') return [{ severity: 'error', path, key: 'app_tracking.store_id_required', source: 'rules' }];
    return APP_STORE_ID.test(storeId) ? [] : [{ severity: 'error', path, key: 'app_tracking.store_id_ios', params: { store_id: storeId }, source: 'rules' }];
  }
  if (storeId === '' || storeId === bundle) return [];
  return [{ severity: 'error', path, key: 'app_tracking.store_id_android', params: { bundle }, source: 'rules' }];
}

// ---------------------------------------------------------------------------------------------
// SKAdNetwork ids

/** Apple's format of an ad network's SKAdNetwork id: ten lowercase letters or digits. */
export const SKADNETWORK_ID_PATTERN = /^[a-z0-9]{10}\.skadnetwork$/;
/** The most ids one list holds (the biggest published lists have a few hundred). */
export const SKADNETWORK_MAX = 500;

/**
 * The problems of an SKAdNetwork id list, each at `path.<index>` with its 1-based `line` in the
 * list (params): a format that is only wrong in case says so (Apple's ids are lowercase), a repeat
 * names the line it repeats.
 */
export function skadNetworkIssues(ids: readonly string[], path: string): BuilderIssue[] {
  const out: BuilderIssue[] = [];
  const seen = new Map<string, number>();
  ids.forEach((raw, i) => {
    const id = raw.trim();
    const at = `${path}.${i}`;
    const line = i + 1;
    if (id === '') out.push({ severity: 'error', path: at, key: 'app_tracking.skan.required', params: { line }, source: 'rules' });
    else if (!SKADNETWORK_ID_PATTERN.test(id)) {
      const key = SKADNETWORK_ID_PATTERN.test(id.toLowerCase()) ? 'app_tracking.skan.lowercase' : 'app_tracking.skan.format';
      out.push({ severity: 'error', path: at, key, params: { id, line }, source: 'rules' });
    } else if (id !== raw) out.push({ severity: 'error', path: at, key: 'app_tracking.skan.spaces', params: { id, line }, source: 'rules' });
    const first = seen.get(id.toLowerCase());
    if (id !== '' && first !== undefined) out.push({ severity: 'error', path: at, key: 'app_tracking.skan.duplicate', params: { id, line, first }, source: 'rules' });
    else if (id !== '') seen.set(id.toLowerCase(), line);
  });
  if (ids.length > SKADNETWORK_MAX) out.push({ severity: 'error', path, key: 'app_tracking.skan.too_many', params: { max: SKADNETWORK_MAX }, source: 'rules' });
  return out;
}

/**
 * The ids in pasted text, in order, as written (not corrected: the list shows each problem at its
 * line). Reads what ad networks publish: one id a line, comma or space separated, a JSON array, or
 * an Info.plist fragment (`<string>…</string>` values).
 */
export function parseSkadNetworkList(text: string): string[] {
  if (/<string>/i.test(text)) return [...text.matchAll(/<string>\s*([^<]*?)\s*<\/string>/gi)].map((m) => m[1]!).filter((s) => s !== '');
  if (text.includes('"')) return [...text.matchAll(/"([^"]*)"/g)].map((m) => m[1]!.trim()).filter((s) => s !== '' && s !== 'skadnetwork_ids' && s !== 'SKAdNetworkIdentifier');
  return text
    .split(/[\s,;]+/)
    .map((s) => s.trim())
    .filter((s) => s !== '');
}

/** Ad networks' SKAdNetwork ids as they publish them (Google, and networks our demand buys through). */
export const EXAMPLE_SKADNETWORK_IDS = [
  'cstr6suwn9.skadnetwork',
  '4fzdc2evr5.skadnetwork',
  '2fnua5tdw4.skadnetwork',
  'ydx93a7ass.skadnetwork',
  'p78axxw29g.skadnetwork',
  'v72qych5uu.skadnetwork',
  'c6k4g5qg8m.skadnetwork',
  's39g8k73mm.skadnetwork',
  'hs6bdukanm.skadnetwork',
  'prcb7njmu6.skadnetwork',
  'wzmmz9fp6w.skadnetwork',
  'yclnxrl5pm.skadnetwork',
] as const;

// ---------------------------------------------------------------------------------------------
// JSON text ↔ configuration

/** 1-based line and column of a character offset. */
export function lineColumnOf(text: string, offset: number): { line: number; column: number } {
  let line = 1;
  let lineStart = 0;
  for (let i = 0; i < offset && i < text.length; i++) {
    if (text.charCodeAt(i) === 10) {
      line++;
      lineStart = i + 1;
    }
  }
  return { line, column: offset - lineStart + 1 };
}

/** A dotted configuration path (`placements.0.id`) as a JSON path (`['placements', 0, 'id']`). */
export function jsonPathOf(path: string): (string | number)[] {
  if (path === '' || path === '_') return [];
  return path.split('.').map((p) => (/^\d+$/.test(p) ? Number(p) : p));
}

/**
 * Where a JSON path is in JSON text: the deepest node of the path that exists (a missing property
 * points at its object), as line and column; null when the text does not parse to a tree.
 */
export function locateJsonPath(tree: Node | undefined, text: string, path: (string | number)[]): { line: number; column: number } | null {
  if (!tree) return null;
  for (let n = path.length; n >= 0; n--) {
    const node = findNodeAtLocation(tree, path.slice(0, n));
    if (node) {
      // A property's value: point at its key, where people look.
      const at = node.parent?.type === 'property' ? node.parent.offset : node.offset;
      return lineColumnOf(text, at);
    }
  }
  return null;
}

/** i18n keys for jsonc-parser's error codes (the rest fall back to `sdk.json.syntax`). */
const JSON_ERROR_KEYS: Record<string, string> = {
  InvalidSymbol: 'sdk.json.invalid_symbol',
  InvalidNumberFormat: 'sdk.json.invalid_number',
  PropertyNameExpected: 'sdk.json.property_expected',
  ValueExpected: 'sdk.json.value_expected',
  ColonExpected: 'sdk.json.colon_expected',
  CommaExpected: 'sdk.json.comma_expected',
  CloseBraceExpected: 'sdk.json.close_brace_expected',
  CloseBracketExpected: 'sdk.json.close_bracket_expected',
  EndOfFileExpected: 'sdk.json.end_expected',
  UnexpectedEndOfString: 'sdk.json.string_unterminated',
};

/**
 * Reads JSON text strictly (no comments, no trailing commas: the SDK's parser is strict too):
 * the value and its tree, or the syntax errors with line and column.
 */
export function readJson(text: string): { value?: unknown; tree?: Node; issues: BuilderIssue[] } {
  const errors: ParseError[] = [];
  const tree = parseTree(text, errors, { disallowComments: true, allowTrailingComma: false, allowEmptyContent: false });
  if (errors.length > 0 || !tree) {
    const list = errors.length > 0 ? errors : [{ error: 4, offset: 0, length: 0 } as ParseError];
    return {
      issues: list.slice(0, 20).map((e) => {
        const code = printParseErrorCode(e.error);
        return { severity: 'error', path: '', key: JSON_ERROR_KEYS[code] ?? 'sdk.json.syntax', params: { code }, source: 'syntax', ...lineColumnOf(text, e.offset) };
      }),
    };
  }
  return { value: nodeValue(tree), tree, issues: [] };
}

function nodeValue(node: Node): unknown {
  switch (node.type) {
    case 'object': {
      const out: Record<string, unknown> = {};
      for (const prop of node.children ?? []) {
        const [k, v] = prop.children ?? [];
        if (k && v) out[String(k.value)] = nodeValue(v);
      }
      return out;
    }
    case 'array':
      return (node.children ?? []).map(nodeValue);
    default:
      return node.value;
  }
}

/** A configuration schema's problems as BuilderIssues at their paths (keys from validation-errors.ts). */
export function zodIssues(issues: readonly z.core.$ZodIssue[]): BuilderIssue[] {
  return Object.entries(issuesToErrors(issues)).map(([path, key]) => ({ severity: 'error' as const, path: path === '_' ? '' : path, key, source: 'schema' as const }));
}

/** Issues with line and column added from `locate` (when it finds the path). */
export function placed(issues: BuilderIssue[], locate: (path: string) => { line: number; column: number } | null): BuilderIssue[] {
  return issues.map((i) => {
    if (i.line !== undefined) return i;
    const at = locate(i.path);
    return at ? { ...i, ...at } : i;
  });
}

/** A file-name-safe form of a bundle (`com.nimbusnews.reader`), or `app`. */
export function fileStem(bundle: string): string {
  const s = bundle.trim().replace(/[^A-Za-z0-9._-]+/g, '-').replace(/^[-.]+|[-.]+$/g, '');
  return s === '' ? 'app' : s.slice(0, 80);
}
