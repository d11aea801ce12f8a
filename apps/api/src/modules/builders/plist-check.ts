/**
 * The app tracking manager's standard check (docs/decisions/041-sdk-and-app-tracking.md): the iOS
 * output is a property list, so it is validated against Apple's property list grammar,
 * PropertyList-1.0.dtd (http://www.apple.com/DTDs/PropertyList-1.0.dtd, quoted below), with
 * xmllint-wasm (libxml2 in WebAssembly, in a worker thread). That build of xmllint has no DTD
 * validation (`--dtdvalid` is not compiled in), so the DTD is applied as its one-to-one RELAX NG
 * transcription: each `<!ELEMENT>` is a `define` with the same content model, the `version`
 * attribute is optional as `CDATA "1.0"` makes it, and nothing else is allowed. Android's output
 * is JSON read by our own SDK: its contract is the builder's zod schema, already applied.
 *
 *   <!ENTITY % plistObject "(array | data | date | dict | real | integer | string | true | false )" >
 *   <!ELEMENT plist %plistObject;>
 *   <!ATTLIST plist version CDATA "1.0" >
 *   <!ELEMENT array (%plistObject;)*>
 *   <!ELEMENT dict (key, %plistObject;)*>
 *   <!ELEMENT key (#PCDATA)>
 *   <!ELEMENT string (#PCDATA)>
 *   <!ELEMENT data (#PCDATA)>
 *   <!ELEMENT date (#PCDATA)>
 *   <!ELEMENT true EMPTY>
 *   <!ELEMENT false EMPTY>
 *   <!ELEMENT real (#PCDATA)>
 *   <!ELEMENT integer (#PCDATA)>
 */
import type { BuilderIssue, BuilderOutput } from '@backoffice/core/builders/common';
import { createRequire } from 'node:module';
import type * as XmlLint from 'xmllint-wasm';

export const PLIST_RELAXNG = `<?xml version="1.0" encoding="UTF-8"?>
<grammar xmlns="http://relaxng.org/ns/structure/1.0">
  <start>
    <element name="plist">
      <optional><attribute name="version"/></optional>
      <ref name="plistObject"/>
    </element>
  </start>
  <define name="plistObject">
    <choice>
      <ref name="array"/><ref name="data"/><ref name="date"/><ref name="dict"/><ref name="real"/>
      <ref name="integer"/><ref name="string"/><ref name="true"/><ref name="false"/>
    </choice>
  </define>
  <define name="array"><element name="array"><zeroOrMore><ref name="plistObject"/></zeroOrMore></element></define>
  <define name="dict"><element name="dict"><zeroOrMore><element name="key"><text/></element><ref name="plistObject"/></zeroOrMore></element></define>
  <define name="string"><element name="string"><text/></element></define>
  <define name="data"><element name="data"><text/></element></define>
  <define name="date"><element name="date"><text/></element></define>
  <define name="true"><element name="true"><empty/></element></define>
  <define name="false"><element name="false"><empty/></element></define>
  <define name="real"><element name="real"><text/></element></define>
  <define name="integer"><element name="integer"><text/></element></define>
</grammar>
`;

const runtimeRequire = createRequire(import.meta.url);
let xmllint: typeof XmlLint | null = null;
const lint = () => (xmllint ??= runtimeRequire('xmllint-wasm') as typeof XmlLint);
const DOCUMENT = 'app-tracking.plist';
const MAX_FINDINGS = 50;

/** The grammar's findings for a property list, each with its line. */
export async function validatePlist(code: string): Promise<BuilderIssue[]> {
  // The DOCTYPE names Apple's DTD by URL, which xmllint would try to fetch (and, offline, warn
  // about); the grammar below is that DTD. Removed on the copy, its line kept, so lines match.
  const copy = code.replace(/<!DOCTYPE[^>]*>/i, '');
  const result = await lint().validateXML({
    xml: [{ fileName: DOCUMENT, contents: copy }],
    schema: [{ fileName: 'plist.rng', contents: PLIST_RELAXNG }],
    extension: 'relaxng',
    modifyArguments: (args) => ['--nonet', ...args],
  });
  if (result.valid) return [];
  // xmllint prints a source line and a caret under a parser error: keep the located messages.
  const findings = result.errors.filter((e) => e.loc !== null && Number.isFinite(e.loc.lineNumber) && !/^\s*warning\b/i.test(e.message));
  if (findings.length === 0) return [{ severity: 'error', path: '', text: `Property list (PropertyList-1.0.dtd): ${result.rawOutput.trim().split('\n')[0] ?? 'invalid'}`, source: 'schema' }];
  return findings.slice(0, MAX_FINDINGS).map((e) => ({
    severity: 'error' as const,
    path: '',
    text: `Property list (PropertyList-1.0.dtd): ${e.message.replace(/^.*?(Relax-NG validity error|parser error)\s*:\s*/, '').trim()}`,
    ...(e.loc ? { line: e.loc.lineNumber } : {}),
    source: 'schema' as const,
  }));
}

/** The registry's check of an app tracking output: iOS property lists only. */
export async function validateAppTrackingOutput(output: BuilderOutput): Promise<BuilderIssue[]> {
  return output.language === 'xml' ? validatePlist(output.code) : [];
}
