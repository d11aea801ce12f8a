/**
 * The ad unit generator's standard check (decision 039): the `adUnits` array of the output
 * against the JSON Schema of the ad unit shape Prebid documents
 * (packages/core/src/standards/prebid/, README there), with Ajv 6, every error at its JSON pointer
 * inside the array and at that pointer's line in the output's JavaScript.
 */
import { readAdUnitsArray } from '@backoffice/core/builders/adunit';
import type { BuilderIssue, BuilderOutput } from '@backoffice/core/builders/common';
import { lineColumnAt, pointerOffset, pointerSegments } from '@backoffice/core/builders/json';
import { PREBID_ADUNITS_SCHEMA } from '@backoffice/core/standards/prebid/adunits-schema';
import Ajv from 'ajv';
import { ajvIssues } from './json-schema.ts';

const draft07 = ({ $schema: _, ...schema }: Record<string, unknown>) => schema;
const ajv = new Ajv({ allErrors: true, jsonPointers: true });
const validateAdUnits = ajv.compile(draft07(PREBID_ADUNITS_SCHEMA));

/** What Prebid's documented shape finds wrong with an array of ad units (positions in `code`). */
export function prebidShapeIssues(code: string): BuilderIssue[] {
  const read = readAdUnitsArray(code);
  if (read.value === undefined || !read.tree) return read.issues;
  const tree = read.tree;
  if (validateAdUnits(read.value)) return [];
  return ajvIssues(validateAdUnits.errors ?? [], (pointer) => lineColumnAt(code, read.base + pointerOffset(tree, pointer))).map((i) => ({
    ...i,
    // The form's path (`mediaTypes.banner.sizes.0`) so the field shows it too; the text keeps the standard's pointer.
    path: configPath(i.path),
    text: `adUnits${i.text ?? ''}`,
  }));
}

/** `/0/mediaTypes/banner/sizes/0` → `mediaTypes.banner.sizes.0`; `/0/floors/…` → `floor` (the configuration's fields). */
function configPath(pointer: string): string {
  const segments = pointerSegments(pointer).slice(1).map(String);
  if (segments[0] === 'floors') return 'floor';
  return segments.join('.');
}

/** The registry's `validate` for the ad unit generator: the rendered output against Prebid's shape. */
export async function validateAdUnitOutput(output: BuilderOutput): Promise<BuilderIssue[]> {
  return prebidShapeIssues(output.code);
}
