/** Zod shape of the API envelope (spec section 7), for response documentation and typed clients. */
import { z } from 'zod';

/** `{status:'success', message, data}` with the given data schema. */
export function successEnvelopeSchema<T extends z.ZodType>(data: T) {
  return z.object({ status: z.literal('success'), message: z.string(), data });
}

/** `{status:'error', message (i18n key), data:null, text?, errors?, params?}`. */
export const errorEnvelopeSchema = z.object({
  status: z.literal('error'),
  message: z.string().describe('Stable i18n message key, e.g. auth.invalid_credentials'),
  data: z.null(),
  text: z.string().optional().describe('The message translated into the Accept-Language locale'),
  errors: z.record(z.string(), z.string()).optional().describe('Field path -> message key'),
  params: z.record(z.string(), z.union([z.string(), z.number()])).optional(),
});

/** A query string that accepts no parameters (unknown ones are rejected). */
export const noQuerySchema = z.strictObject({});
