/**
 * The OpenRTB 2.6 Pmp and Deal JSON Schemas (openrtb-2.6/, the IAB Tech Lab's) as a check, for the
 * tests of the `pmp` object a deal produces (core's unit test, the API's integration test). Ajv is
 * a development dependency: nothing the apps ship imports this file.
 */
import Ajv from 'ajv';
import dealSchema from './openrtb-2.6/Deal.json' with { type: 'json' };
import durFloorsSchema from './openrtb-2.6/DurFloors.json' with { type: 'json' };
import pmpSchema from './openrtb-2.6/Pmp.json' with { type: 'json' };

/** The IAB's draft 2020-12 files read by Ajv 6 (draft-07): the keywords they use mean the same there (README). */
const draft07 = ({ $schema: _, ...schema }: Record<string, unknown>) => schema;
const ajv = new Ajv({ allErrors: true });
ajv.addSchema(draft07(durFloorsSchema));
ajv.addSchema(draft07(dealSchema));
const validatePmp = ajv.compile(draft07(pmpSchema));

/**
 * What is wrong with a pmp object: the schema's errors (`path message`), and any field the 2.6 Pmp
 * and Deal objects do not define (the schemas are open, so a misspelt field would pass them).
 */
export function pmpProblems(pmp: unknown): string[] {
  const errors = validatePmp(pmp)
    ? []
    : (validatePmp.errors ?? []).map((e) => `${e.dataPath} ${e.message ?? ''}`);
  if (pmp === null || typeof pmp !== 'object') return errors;
  const p = pmp as { deals?: unknown };
  for (const k of Object.keys(p)) if (!(k in pmpSchema.properties)) errors.push(`unknown pmp field ${k}`);
  if (Array.isArray(p.deals)) {
    for (const d of p.deals)
      if (d && typeof d === 'object')
        for (const k of Object.keys(d))
          if (!(k in dealSchema.properties)) errors.push(`unknown deal field ${k}`);
  }
  return errors;
}
