/**
 * Text that the API and PostgreSQL can store: no NUL character (PostgreSQL's text cannot hold
 * one) and no lone UTF-16 surrogate (not a character; it cannot be written as UTF-8). Such text
 * is refused with `error.invalid_text` wherever it comes in: the API checks every request's
 * body, query and path before any route sees it, and forms can use `safeText`.
 */
import { z } from 'zod';

export const INVALID_TEXT = 'error.invalid_text';

/** A NUL, or a high surrogate not followed by a low one, or a low one not preceded by a high one. */
// eslint-disable-next-line no-control-regex -- finding the NUL control character is the point
const BAD_TEXT = /\u0000|[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

export function isSafeText(text: string): boolean {
  return !BAD_TEXT.test(text);
}

/**
 * The path (`name`, `filters.0.values.2`, `_` for the value itself) of the first string in a
 * JSON-like value, key or element, that is not safe text; null when all are.
 */
export function findUnsafeText(value: unknown, path: readonly (string | number)[] = []): string | null {
  if (typeof value === 'string') return isSafeText(value) ? null : path.join('.') || '_';
  if (Array.isArray(value)) {
    for (let i = 0; i < value.length; i++) {
      const found = findUnsafeText(value[i], [...path, i]);
      if (found !== null) return found;
    }
    return null;
  }
  if (value !== null && typeof value === 'object') {
    for (const [key, item] of Object.entries(value)) {
      if (!isSafeText(key)) return [...path, key.replace(BAD_TEXT, '?')].join('.');
      const found = findUnsafeText(item, [...path, key]);
      if (found !== null) return found;
    }
  }
  return null;
}

/** A string schema that refuses unsafe text with its message key. */
export const safeText = z.string().refine(isSafeText, INVALID_TEXT);
