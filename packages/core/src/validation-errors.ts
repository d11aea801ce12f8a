/**
 * Zod issues as field errors ({path: message key}), the same on both sides: the API answers them
 * in the 400 envelope's `errors`, and the web app's forms show them next to their fields.
 */
import type { z } from 'zod';

/** Maps zod issues to {path: message key}; a custom refinement's message is already a key. */
export function issuesToErrors(issues: readonly z.core.$ZodIssue[]): Record<string, string> {
  const out: Record<string, string> = {};
  for (const issue of issues) {
    let key: string;
    if (issue.code === 'unrecognized_keys') {
      for (const k of issue.keys) out[[...issue.path, k].join('.')] = 'error.unknown_field';
      continue;
    }
    if (issue.code === 'invalid_type') {
      key = (issue as { input?: unknown }).input === undefined ? 'error.required' : 'error.invalid_type';
    } else if (typeof issue.message === 'string' && /^[a-z_]+(\.[a-zA-Z_]+)+$/.test(issue.message)) {
      // A custom refinement that already carries a message key.
      key = issue.message;
    } else {
      key = 'error.invalid_value';
    }
    out[issue.path.join('.') || '_'] = key;
  }
  return out;
}

