/**
 * A tiny builder for the shared layer's tests only (never in the registry): an ad slot as JSON.
 * Its own rule (a code in lower case, digits and dashes) reports at the field; its "standard's
 * validator" accepts only the IAB's common sizes and names the line of "size" in the code, as a
 * real validator (XSD, JSON Schema) names its element. So the tests see every kind of issue
 * without depending on a builder still being written.
 */
import type { BuilderDefinition, BuilderIssue, BuilderOutput } from '@backoffice/core/builders/common';
import { z } from 'zod';
import type { ServerBuilder } from '../src/modules/builders/registry.ts';

export const slotConfigSchema = z.strictObject({
  code: z.string().min(1).max(60),
  width: z.number().int().min(1).max(4000),
  height: z.number().int().min(1).max(4000),
  floor: z.string().regex(/^\d{1,6}(\.\d{1,4})?$/, 'error.invalid_value'),
  consent: z.boolean(),
});
export type SlotConfig = z.infer<typeof slotConfigSchema>;

const CODE_RULE = /^[a-z0-9-]+$/;

function rules(config: SlotConfig): BuilderIssue[] {
  return CODE_RULE.test(config.code) ? [] : [{ severity: 'error', path: 'code', key: 'error.invalid_value', source: 'rules' }];
}

/** Line and column (1-based) of an offset in a text. */
function place(text: string, offset: number): { line: number; column: number } {
  const before = text.slice(0, offset).split('\n');
  return { line: before.length, column: before[before.length - 1]!.length + 1 };
}

export const slotBuilder: BuilderDefinition<SlotConfig> = {
  kind: 'playon',
  subjects: ['ad_unit', 'publisher'],
  configSchema: slotConfigSchema,
  defaults: () => ({ code: 'home-mpu', width: 300, height: 250, floor: '0.50', consent: true }),
  render(config): BuilderOutput {
    const code = JSON.stringify({ slot: config.code, size: [config.width, config.height], floor: config.floor, gdpr: config.consent ? 1 : 0 }, null, 2);
    return { code, language: 'json', filename: `${config.code}.json`, mime: 'application/json', issues: rules(config) };
  },
  parse(code) {
    let doc: unknown;
    try {
      doc = JSON.parse(code);
    } catch (err) {
      const at = /position (\d+)/.exec(String((err as Error).message));
      const where = at ? place(code, Number(at[1])) : { line: 1, column: 1 };
      return { issues: [{ severity: 'error', path: '', text: String((err as Error).message), source: 'syntax', ...where }] };
    }
    const d = (doc ?? {}) as { slot?: unknown; size?: unknown; floor?: unknown; gdpr?: unknown };
    const size = Array.isArray(d.size) ? d.size : [];
    const config = { code: d.slot, width: size[0], height: size[1], floor: d.floor, consent: d.gdpr === 1 } as SlotConfig;
    const checked = slotConfigSchema.safeParse(config);
    return { config, issues: checked.success ? rules(checked.data) : [] };
  },
  examples: () => [
    { name: 'Homepage MPU', config: { code: 'home-mpu', width: 300, height: 250, floor: '0.50', consent: true } },
    { name: 'Article leaderboard', config: { code: 'article-top', width: 728, height: 90, floor: '0.35', consent: true } },
  ],
};

const IAB_SIZES = new Set(['300x250', '728x90', '320x50', '160x600', '300x600', '970x250']);

/** The fixture's "standard": an IAB size, reported at the line of "size" in the code. */
export async function validateSlot(output: BuilderOutput): Promise<BuilderIssue[]> {
  let size: unknown;
  try {
    size = (JSON.parse(output.code) as { size?: unknown }).size;
  } catch {
    return [];
  }
  if (Array.isArray(size) && IAB_SIZES.has(`${size[0]}x${size[1]}`)) return [];
  const offset = output.code.indexOf('"size"');
  return [{ severity: 'error', path: '/size', text: 'size: not one of the IAB standard sizes', source: 'schema', ...place(output.code, Math.max(offset, 0)) }];
}

export const slotServerBuilder: ServerBuilder = { definition: slotBuilder, validate: (output) => validateSlot(output) };
/** The same builder under an SDK kind (its ACL resource is /v1/sdk). */
export const slotSdkServerBuilder: ServerBuilder = { definition: { ...slotBuilder, kind: 'sdk', subjects: ['app', 'none'] }, validate: (output) => validateSlot(output) };
