/**
 * Field schemas the resource declarations share: optional texts (empty is null), decimal amounts
 * sent as text (no float reaches the database), domains, optional e-mails. Message keys are the
 * caller's where the rule is the entity's own.
 */
import { z } from 'zod';

/** A hostname such as `example.com` (lower case; labels of letters, digits and hyphens). */
export const HOSTNAME = /^(?=.{1,253}$)([a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?\.)+[a-z]{2,63}$/;

/** A text of at most `max` characters, trimmed; empty is null. */
export const optionalText = (max: number) =>
  z
    .union([z.string(), z.null()])
    .transform((v) => (v === null ? null : v.trim() || null))
    .pipe(z.string().max(max, 'error.too_long').nullable());

/** An e-mail address, or null when empty. */
export const optionalEmail = () =>
  z
    .union([z.string(), z.null()])
    .transform((v) => (v === null ? null : v.trim() || null))
    .pipe(z.string().max(254, 'error.too_long').email('company.email_invalid').nullable());

/** A domain in lower case, or null when empty; `key` when it is not a hostname. */
export const optionalHostname = (key: string) =>
  z
    .union([z.string(), z.null()])
    .transform((v) => (v === null ? null : v.trim().toLowerCase() || null))
    .refine((v) => v === null || HOSTNAME.test(v), key);

/** A non-negative decimal with up to `scale` decimals and at most `max`, kept as text. */
export const decimalText = (scale: number, max: number, key: string) => {
  const shape = new RegExp(`^\\d{1,9}(\\.\\d{1,${scale}})?$`);
  return z
    .union([z.string(), z.number()])
    .transform((v) => String(v).trim())
    .refine((v) => shape.test(v) && Number(v) <= max, key);
};
