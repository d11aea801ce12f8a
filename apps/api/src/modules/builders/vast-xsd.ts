/**
 * The VAST builder's standard check (docs/decisions/038-vast-builder.md): a document is validated
 * against the IAB XSD of the version its root names (4.2, 4.1, 3.0; the files are vendored in
 * src/standards/vast/) with xmllint-wasm, libxml2 compiled to WebAssembly, in a worker thread. Each
 * finding becomes a BuilderIssue with its line, the element named and, for the builder's own
 * output, the form field that wrote that line.
 *
 * Two things are done to the copy that is validated, and said in an issue or here:
 *   - IAB macros ([CACHEBUSTING], [ERRORCODE]…) stand in URLs, where the XSD's xs:anyURI (RFC 3986)
 *     allows no square brackets; a player replaces them before it requests the URL, so the copy
 *     has them replaced by their bare names. Unknown macros are left as they are (and fail).
 *   - A 4.x document without the VAST namespace (common in the wild) is validated as if it had
 *     it, with a warning saying so; otherwise the only finding would be "no matching global
 *     declaration" and none of its real problems.
 */
import type { BuilderIssue, BuilderOutput } from '@backoffice/core/builders/common';
import { VAST_MACROS, VAST_NAMESPACE, renderVast, vastConfigSchema, vastElementLines, vastVersionOf, type VastVersion } from '@backoffice/core/builders/vast';
import fs from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import type * as XmlLint from 'xmllint-wasm';
import { API_ROOT } from '../../config.ts';

export const VAST_XSD_DIR = path.join(API_ROOT, 'src', 'standards', 'vast');
export const VAST_XSD_FILES: Record<VastVersion, string> = { '4.2': 'vast_4.2.xsd', '4.1': 'vast_4.1.xsd', '3.0': 'vast3_draft.xsd' };
/** Findings reported at most (a broken document repeats the same one). */
const MAX_FINDINGS = 50;
const DOCUMENT = 'vast.xml';

// xmllint-wasm starts its worker from a file next to its own (__dirname), so it must not be
// bundled: it is required at run time, which esbuild (build.mjs) leaves to Node.
const runtimeRequire = createRequire(import.meta.url);
let xmllint: typeof XmlLint | null = null;
const lint = () => (xmllint ??= runtimeRequire('xmllint-wasm') as typeof XmlLint);

const schemas = new Map<VastVersion, string>();
function schemaOf(version: VastVersion): string {
  let text = schemas.get(version);
  if (text === undefined) {
    text = fs.readFileSync(path.join(VAST_XSD_DIR, VAST_XSD_FILES[version]), 'utf8');
    schemas.set(version, text);
  }
  return text;
}

const MACRO = new RegExp(`\\[(${VAST_MACROS.join('|')})\\]`, 'g');
const ROOT = /<VAST\b[^>]*>/;

/** The version the document's root names (or the config's when it names none) and whether it has the 4.x namespace. */
function documentFacts(code: string, fallback: VastVersion): { version: VastVersion; namespaced: boolean; rootIndex: number } {
  const root = ROOT.exec(code);
  const found = root ? /\bversion\s*=\s*["']([^"']*)["']/.exec(root[0])?.[1] : undefined;
  return {
    version: found !== undefined ? vastVersionOf(found).version : fallback,
    namespaced: root ? new RegExp(`\\bxmlns\\s*=\\s*["']${VAST_NAMESPACE.replace(/[.]/g, '\\.')}["']`).test(root[0]) : false,
    rootIndex: root?.index ?? -1,
  };
}

/** "Element '{http://www.iab.com/VAST}Duration': …" → "Element 'Duration': …" and the element's name. */
function findingOf(message: string): { text: string; element: string | null } {
  const text = message
    .replace(/^.*?Schemas validity error\s*:\s*/, '')
    .replace(/\{http:\/\/www\.iab\.com\/VAST\}/g, '')
    .trim();
  return { text, element: /Element '([^']+)'/.exec(text)?.[1] ?? null };
}

export interface VastXsdOptions {
  /** The version to check when the document's root names none. */
  version?: VastVersion;
  /** The configuration the document was rendered from: findings on its lines name its form fields. */
  lines?: Map<number, string>;
}

/** The XSD's findings for a VAST document as it is (its version from its root element). */
export async function validateVastDocument(code: string, opts: VastXsdOptions = {}): Promise<BuilderIssue[]> {
  const facts = documentFacts(code, opts.version ?? '4.2');
  const issues: BuilderIssue[] = [];
  let copy = code.replace(MACRO, '$1');
  if (facts.version !== '3.0' && !facts.namespaced && facts.rootIndex >= 0) {
    const at = facts.rootIndex + '<VAST'.length;
    copy = `${copy.slice(0, at)} xmlns="${VAST_NAMESPACE}"${copy.slice(at)}`;
    issues.push({ severity: 'warning', path: 'version', key: 'vast.xsd.no_namespace', params: { namespace: VAST_NAMESPACE }, source: 'schema', line: lineOf(code, facts.rootIndex) });
  }
  let result: XmlLint.XMLValidationResult;
  try {
    result = await lint().validateXML({
      xml: [{ fileName: DOCUMENT, contents: copy }],
      schema: [{ fileName: VAST_XSD_FILES[facts.version], contents: schemaOf(facts.version) }],
    });
  } catch (err) {
    return [...issues, { severity: 'error', path: '', key: 'vast.xsd.unavailable', params: { message: err instanceof Error ? err.message.slice(0, 300) : String(err) }, source: 'schema' }];
  }
  if (result.valid) return issues;
  let elementLines: { line: number; path: string }[] | null = null;
  for (const e of result.errors.slice(0, MAX_FINDINGS)) {
    const line = e.loc?.lineNumber;
    const { text, element } = findingOf(e.message);
    if (text === '' || /fails to validate$/.test(text)) continue;
    let where = line !== undefined ? opts.lines?.get(line) : undefined;
    if (where === undefined && line !== undefined) {
      const candidates = (elementLines ??= vastElementLines(code)).filter((l) => l.line === line);
      where = (element ? candidates.find((c) => c.path.endsWith(`/${element}`) || c.path === element) : undefined)?.path ?? candidates[0]?.path;
    }
    issues.push({
      severity: 'error',
      path: where ?? element ?? '',
      text,
      ...(element ? { params: { element } } : {}),
      ...(line !== undefined ? { line } : {}),
      source: 'schema',
    });
  }
  if (!issues.some((i) => i.severity === 'error'))
    // xmllint said invalid without a line-numbered finding: never report such a document as valid.
    issues.push({ severity: 'error', path: '', text: result.rawOutput.trim().slice(0, 500) || 'The document does not validate against the XSD.', source: 'schema' });
  return issues;
}

function lineOf(code: string, index: number): number {
  let line = 1;
  for (let i = code.indexOf('\n'); i !== -1 && i < index; i = code.indexOf('\n', i + 1)) line++;
  return line;
}

/**
 * The registry's check (registry.ts): the output's code against the XSD of its version. When the
 * code is the builder's own rendering of the configuration, each finding names the form field
 * that wrote its line; otherwise (code typed or loaded) the element's path.
 */
export async function validateVastOutput(output: BuilderOutput, config: unknown): Promise<BuilderIssue[]> {
  const parsed = vastConfigSchema.safeParse(config);
  let lines: Map<number, string> | undefined;
  if (parsed.success) {
    const rendered = renderVast(parsed.data);
    if (rendered.code === output.code) lines = rendered.lines;
  }
  return validateVastDocument(output.code, { ...(parsed.success ? { version: parsed.data.version } : {}), ...(lines ? { lines } : {}) });
}
