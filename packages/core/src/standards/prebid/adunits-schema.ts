/** Prebid's documented ad unit shape as a JSON Schema (adunits.schema.json; README in this folder). */
import schema from './adunits.schema.json' with { type: 'json' };

export const PREBID_ADUNITS_SCHEMA: Record<string, unknown> = schema;
