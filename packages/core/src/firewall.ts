/**
 * IP firewall rules shared by the API and the web app (spec sections 3, 5, 6, 9): the duration
 * types, the entry statuses, IP address validation (IPv4 and IPv6) and the request schemas.
 */
import { z } from 'zod';
import { FIREWALL_UNLIMITED } from './acl.ts';
import { idText } from './ids.ts';

/** The ACL resource that guards the firewall (route permission and the top-bar control). */
export const FIREWALL_RESOURCE = '/v1/firewall';
/** Action on {@link FIREWALL_RESOURCE} needed for the UNLIMITED duration. */
export const FIREWALL_UNLIMITED_ACTION = FIREWALL_UNLIMITED;

/** Duration types, in the order the select shows them. */
export const FIREWALL_TYPES = ['HOUR_1', 'HOUR_2', 'HOUR_3', 'HOUR_6', 'HOUR_9', 'HOUR_12', 'UNLIMITED'] as const;
export type FirewallType = (typeof FIREWALL_TYPES)[number];

/** Hours per type (spec section 9: 1, 2, 3, 6, 9, 12 hours; Unlimited is 99). */
export const FIREWALL_DURATION_HOURS: Readonly<Record<FirewallType, number>> = {
  HOUR_1: 1,
  HOUR_2: 2,
  HOUR_3: 3,
  HOUR_6: 6,
  HOUR_9: 9,
  HOUR_12: 12,
  UNLIMITED: 99,
};

export const DEFAULT_FIREWALL_TYPE: FirewallType = 'HOUR_1';

/** Entry statuses (spec section 3). An expired entry is DISABLED with the reason 'expired'. */
export const FIREWALL_STATUSES = ['ACTIVE', 'PENDING', 'DISABLED', 'ERROR'] as const;
export type FirewallStatus = (typeof FIREWALL_STATUSES)[number];

/** Why an entry is DISABLED: by a person, or by the expiry job. */
export const FIREWALL_DISABLED_REASONS = ['manual', 'expired'] as const;
export type FirewallDisabledReason = (typeof FIREWALL_DISABLED_REASONS)[number];

export function isFirewallType(value: unknown): value is FirewallType {
  return typeof value === 'string' && (FIREWALL_TYPES as readonly string[]).includes(value);
}

export function isUnlimited(type: FirewallType): boolean {
  return type === 'UNLIMITED';
}

/** Hours the type lasts, or null when it never expires. */
export function durationHours(type: FirewallType): number | null {
  return isUnlimited(type) ? null : FIREWALL_DURATION_HOURS[type];
}

/** When an entry of this type made at `from` expires; null for UNLIMITED. */
export function expiryFor(type: FirewallType, from: Date): Date | null {
  const hours = durationHours(type);
  return hours === null ? null : new Date(from.getTime() + hours * 3_600_000);
}

export interface DurationOption {
  value: FirewallType;
  hours: number;
  /** i18n key of the label, with its params. */
  label: 'firewall.hour_1' | 'firewall.hours_n' | 'firewall.unlimited';
  params?: { count: number };
}

/** The options of the duration select; UNLIMITED only with the firewall_unlimited permission. */
export function durationOptions(canUnlimited: boolean): DurationOption[] {
  return FIREWALL_TYPES.filter((t) => canUnlimited || !isUnlimited(t)).map((value) => {
    const hours = FIREWALL_DURATION_HOURS[value];
    if (isUnlimited(value)) return { value, hours, label: 'firewall.unlimited' };
    if (hours === 1) return { value, hours, label: 'firewall.hour_1' };
    return { value, hours, label: 'firewall.hours_n', params: { count: hours } };
  });
}

// ---------------------------------------------------------------------------------------------
// IP addresses

const IPV4_OCTET = '(25[0-5]|2[0-4]\\d|1\\d\\d|[1-9]?\\d)';
const IPV4_RE = new RegExp(`^${IPV4_OCTET}(\\.${IPV4_OCTET}){3}$`);
const HEX_GROUP_RE = /^[0-9a-fA-F]{1,4}$/;

/** Dotted-quad IPv4, no leading zeros (010.0.0.1 is ambiguous, so refused). */
export function isIpv4(value: string): boolean {
  return IPV4_RE.test(value);
}

/** The 8 sixteen-bit groups of an IPv6 address, or null when it is not one (no zone ids, no brackets). */
function ipv6Groups(value: string): number[] | null {
  if (value.length < 2 || value.length > 45 || !/^[0-9a-fA-F:.]+$/.test(value)) return null;
  const halves = value.split('::');
  if (halves.length > 2) return null;
  const parse = (part: string): number[] | null => {
    if (part === '') return [];
    const out: number[] = [];
    const pieces = part.split(':');
    for (let i = 0; i < pieces.length; i++) {
      const p = pieces[i]!;
      if (i === pieces.length - 1 && p.includes('.')) {
        if (!isIpv4(p)) return null;
        const [a, b, c, d] = p.split('.').map(Number) as [number, number, number, number];
        out.push((a << 8) | b, (c << 8) | d);
      } else if (HEX_GROUP_RE.test(p)) {
        out.push(parseInt(p, 16));
      } else {
        return null;
      }
    }
    return out;
  };
  const head = parse(halves[0]!);
  if (!head) return null;
  if (halves.length === 1) return head.length === 8 ? head : null;
  const tail = parse(halves[1]!);
  if (!tail) return null;
  // An embedded IPv4 part may only end the address.
  if (halves[0]!.includes('.')) return null;
  const missing = 8 - head.length - tail.length;
  if (missing < 1) return null;
  return [...head, ...new Array<number>(missing).fill(0), ...tail];
}

export function isIpv6(value: string): boolean {
  return ipv6Groups(value) !== null;
}

export function isValidIp(value: string): boolean {
  return isIpv4(value.trim()) || isIpv6(value.trim());
}

/** RFC 5952 text of 8 groups: lowercase, no leading zeros, the longest run (>= 2) of zeros as '::'. */
function formatIpv6(groups: number[]): string {
  let bestStart = -1;
  let bestLen = 0;
  for (let i = 0; i < 8; ) {
    if (groups[i] !== 0) {
      i++;
      continue;
    }
    let j = i;
    while (j < 8 && groups[j] === 0) j++;
    if (j - i > bestLen && j - i >= 2) {
      bestStart = i;
      bestLen = j - i;
    }
    i = j;
  }
  const hex = groups.map((g) => g.toString(16));
  if (bestStart < 0) return hex.join(':');
  return `${hex.slice(0, bestStart).join(':')}::${hex.slice(bestStart + bestLen).join(':')}`;
}

/**
 * The canonical text of an address, or null when it is not a valid IPv4/IPv6 address: IPv4 as
 * is, IPv6 in RFC 5952 form, and an IPv4-mapped IPv6 address (::ffff:a.b.c.d, what a dual-stack
 * socket reports for an IPv4 client) as the IPv4 address the firewall sees.
 */
export function canonicalIp(value: string): string | null {
  const text = value.trim();
  if (isIpv4(text)) return text;
  const groups = ipv6Groups(text);
  if (!groups) return null;
  if (groups.slice(0, 5).every((g) => g === 0) && groups[5] === 0xffff) {
    const [hi, lo] = [groups[6]!, groups[7]!];
    return `${hi >> 8}.${hi & 255}.${lo >> 8}.${lo & 255}`;
  }
  return formatIpv6(groups);
}

/** Do two texts name the same address? */
export function sameIp(a: string, b: string): boolean {
  const ca = canonicalIp(a);
  return ca !== null && ca === canonicalIp(b);
}

// ---------------------------------------------------------------------------------------------
// Request schemas (API route schemas and the web forms)

/**
 * Addresses that are valid but name no one computer, so an allow-list entry for them would mean
 * nothing or everything: the unspecified addresses (0.0.0.0, ::) and the limited broadcast.
 */
export const NOT_HOST_ADDRESSES: ReadonlySet<string> = new Set(['0.0.0.0', '::', '255.255.255.255']);

/** Can this (canonical) address stand in the allow-list: one computer's address? */
export function isHostAddress(canonical: string): boolean {
  return !NOT_HOST_ADDRESSES.has(canonical);
}

/** An IP address of one computer; normalised to its canonical text. */
export const firewallIpSchema = z
  .string()
  .max(64, 'firewall.invalid_ip')
  .refine((v) => canonicalIp(v) !== null, 'firewall.invalid_ip')
  .transform((v) => canonicalIp(v) as string)
  .refine(isHostAddress, 'firewall.not_a_host');

export const firewallTypeSchema = z.enum(FIREWALL_TYPES, { error: 'firewall.invalid_type' });

/** POST /v1/firewall/ip body (spec section 3, Firewall request). */
export const firewallRequestSchema = z
  .object({
    ip: firewallIpSchema,
    type: firewallTypeSchema.default(DEFAULT_FIREWALL_TYPE),
  })
  .strict();
export type FirewallRequest = z.input<typeof firewallRequestSchema>;

/** /v1/firewall/entries/:id params. */
export const firewallEntryParamsSchema = z
  .object({
    id: idText,
  })
  .strict();

/** Body of disable/enable: nothing (Fastify passes null), or an empty object. */
export const firewallEntryActionBodySchema = z.object({}).strict().nullish();

/** POST /v1/firewall/ip answer (spec section 3, Firewall response): 'OK' or an error text each. */
export interface FirewallUpdateResult {
  update_db_ip: string;
  update_firewall_ip: string;
}

/** One entry as the list answers it. */
export interface FirewallEntryItem {
  id: number;
  ip: string;
  owner: { id: number; mail: string; name: string };
  type: FirewallType;
  status: FirewallStatus;
  /** i18n key of the last apply error (ERROR), else null. */
  error: string | null;
  /** Why it is DISABLED ('manual' or 'expired'), else null. */
  disabled_reason: FirewallDisabledReason | null;
  created_at: string;
  updated_at: string;
  /** null for UNLIMITED. */
  expires_at: string | null;
}

/** One entry as the resource layer lists it (GET /v1/firewall/entries, resources/firewall-entries.ts). */
export interface FirewallEntryRow {
  id: number;
  ip: string;
  owner_id: number;
  /** The owner's name. */
  owner_id_label: string | null;
  type: FirewallType;
  status: FirewallStatus;
  error: string | null;
  disabled_reason: FirewallDisabledReason | null;
  expires_at: string | null;
  created_at: string;
  updated_at: string;
}

/** The answer of disable/enable: the entry after the change and the firewall apply result. */
export interface FirewallEntryActionResult {
  entry: FirewallEntryItem;
  update_firewall_ip: string;
}

/** The 'OK' marker of a successful update (spec section 8). */
export const FIREWALL_OK = 'OK';
