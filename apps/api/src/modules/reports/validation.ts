/**
 * Route validator for the reports, QPS and DataViewer routes: the same zod schemas as the global
 * validator, but the envelope's `message` is the first domain key (report.dates_mandatory,
 * qps.interval_too_short, …) so the screen can show the spec's text directly; `errors` still maps
 * every field to its key.
 */
import type { FastifySchemaCompiler } from 'fastify';
import type { z } from 'zod';
import { AppError } from '../../lib/errors.ts';
import { issuesToErrors } from '../../plugins/validation.ts';

const DOMAIN_PREFIXES = ['report.', 'qps.'];

/** The key the envelope leads with: the first domain key, else error.validation. */
export function primaryKey(errors: Record<string, string>): string {
  const keys = Object.values(errors);
  // The spec's two headline rules win over anything else.
  for (const k of ['report.dates_mandatory', 'qps.dates_mandatory', 'report.dimension_or_metric_required']) if (keys.includes(k)) return k;
  return keys.find((k) => DOMAIN_PREFIXES.some((p) => k.startsWith(p))) ?? 'error.validation';
}

// `any`: Fastify types the compiler with the route's whole schema object; it is called per part (a zod schema).
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export const domainValidator: FastifySchemaCompiler<any> = ({ schema }) => {
  const zodSchema = schema as z.ZodType;
  return (data: unknown) => {
    const result = zodSchema.safeParse(data === null || data === undefined ? {} : data);
    if (result.success) return { value: result.data };
    const errors = issuesToErrors(result.error.issues);
    // A domain key set on the schema wins over the generic required/invalid-type keys.
    for (const issue of result.error.issues) {
      if (typeof issue.message === 'string' && DOMAIN_PREFIXES.some((p) => issue.message.startsWith(p))) errors[issue.path.join('.') || '_'] = issue.message;
    }
    return { error: new AppError(400, primaryKey(errors), { errors }) };
  };
};
