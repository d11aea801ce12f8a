/**
 * Row ids, one type for every path, query and body (PostgreSQL `integer` / `serial` keys).
 *
 * In a path or a query string an id is written the one canonical way: decimal digits without a
 * leading zero, from 1 to 2,147,483,647 (PostgreSQL's integer range). `0x10`, `893.0`, `894e0`,
 * ` 892`, `+5` and `99999999999999999999` are refused with `error.invalid_id` (a loose coercion
 * once made `DELETE …/0x10` delete row 16); in JSON an id is a whole number in the same range.
 */
import { z } from 'zod';

/** The largest id PostgreSQL's `integer` holds. */
export const MAX_ID = 2_147_483_647;
export const INVALID_ID = 'error.invalid_id';

const CANONICAL_ID = /^[1-9]\d{0,9}$/;

/** Is this text an id in its canonical decimal form, within range? */
export function isIdText(text: string): boolean {
  return CANONICAL_ID.test(text) && Number(text) <= MAX_ID;
}

/** An id in a path segment or a query string: canonical decimal text -> number. */
export const idText = z
  .string({ error: INVALID_ID })
  .refine(isIdText, INVALID_ID)
  .transform((text) => Number(text));

/** An id in a JSON body: a whole number from 1 to MAX_ID. */
export const idNumber = z
  .number({ error: INVALID_ID })
  .refine((n) => Number.isInteger(n) && n >= 1 && n <= MAX_ID, INVALID_ID);

/** `{ id }` path parameters. */
export const idParamsSchema = z.object({ id: idText }).strict();

/** One id of a list: a number (JSON) or its text (a query string), checked the same way. */
const idItem = z.preprocess((value) => (typeof value === 'number' ? String(value) : value), idText);

/** A list of ids: a comma-separated query value (`ids=1,2`) or a JSON array of numbers. */
export const idList = z.preprocess((value) => (typeof value === 'string' ? (value === '' ? [] : value.split(',')) : value), z.array(idItem));

/**
 * A comma-separated list of ids to look up by (`?ids=3,17,0`), kept as text: digits and commas,
 * each number within MAX_ID. 0 is allowed (the open auction stands for deal 0).
 */
export const lookupIdsText = z
  .string()
  .max(2000)
  .regex(/^[0-9,]*$/, INVALID_ID)
  .refine((text) => text.split(',').every((part) => part === '' || Number(part) <= MAX_ID), INVALID_ID);
