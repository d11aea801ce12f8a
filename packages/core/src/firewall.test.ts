import { describe, expect, it } from 'vitest';
import {
  DEFAULT_FIREWALL_TYPE,
  FIREWALL_DURATION_HOURS,
  FIREWALL_STATUSES,
  FIREWALL_TYPES,
  canonicalIp,
  durationHours,
  durationOptions,
  expiryFor,
  firewallEntryParamsSchema,
  firewallRequestSchema,
  isIpv4,
  isIpv6,
  isValidIp,
  sameIp,
} from './firewall.ts';
import { en, es } from './i18n/catalogues.ts';

describe('firewall durations (spec section 9)', () => {
  it('has 1, 2, 3, 6, 9, 12 hours and Unlimited (99), default HOUR_1', () => {
    expect(FIREWALL_TYPES).toEqual(['HOUR_1', 'HOUR_2', 'HOUR_3', 'HOUR_6', 'HOUR_9', 'HOUR_12', 'UNLIMITED']);
    expect(FIREWALL_TYPES.map((t) => FIREWALL_DURATION_HOURS[t])).toEqual([1, 2, 3, 6, 9, 12, 99]);
    expect(DEFAULT_FIREWALL_TYPE).toBe('HOUR_1');
    expect(FIREWALL_STATUSES).toEqual(['ACTIVE', 'PENDING', 'DISABLED', 'ERROR']);
  });

  it('computes expiry; UNLIMITED never expires', () => {
    const from = new Date('2025-01-01T10:00:00Z');
    expect(expiryFor('HOUR_6', from)?.toISOString()).toBe('2025-01-01T16:00:00.000Z');
    expect(expiryFor('HOUR_12', from)?.toISOString()).toBe('2025-01-01T22:00:00.000Z');
    expect(expiryFor('UNLIMITED', from)).toBeNull();
    expect(durationHours('UNLIMITED')).toBeNull();
    expect(durationHours('HOUR_9')).toBe(9);
  });

  it('offers Unlimited only with the permission, with labels that exist in both languages', () => {
    const limited = durationOptions(false);
    expect(limited.map((o) => o.value)).toEqual(['HOUR_1', 'HOUR_2', 'HOUR_3', 'HOUR_6', 'HOUR_9', 'HOUR_12']);
    const all = durationOptions(true);
    expect(all.at(-1)).toEqual({ value: 'UNLIMITED', hours: 99, label: 'firewall.unlimited' });
    expect(all[0]).toEqual({ value: 'HOUR_1', hours: 1, label: 'firewall.hour_1' });
    expect(all[3]).toEqual({ value: 'HOUR_6', hours: 6, label: 'firewall.hours_n', params: { count: 6 } });
    for (const o of all) {
      expect(en).toHaveProperty([o.label]);
      expect(es).toHaveProperty([o.label]);
    }
  });
});

describe('IP validation', () => {
  it.each(['0.0.0.0', '127.0.0.5', '192.168.1.255', '255.255.255.255', '8.8.8.8'])('accepts IPv4 %s', (ip) => {
    expect(isIpv4(ip)).toBe(true);
    expect(isValidIp(ip)).toBe(true);
    expect(canonicalIp(ip)).toBe(ip);
  });

  it.each(['256.1.1.1', '1.2.3', '1.2.3.4.5', '01.2.3.4', '1.2.3.-4', '1.2.3.4/32', ' ', '', 'a.b.c.d', '1..2.3'])(
    'refuses IPv4-looking %j',
    (ip) => {
      expect(isValidIp(ip)).toBe(false);
      expect(canonicalIp(ip)).toBeNull();
    },
  );

  it.each([
    ['::1', '::1'],
    ['::', '::'],
    ['2001:DB8::1', '2001:db8::1'],
    ['2001:0db8:0000:0000:0000:0000:0000:0001', '2001:db8::1'],
    ['2001:db8:0:0:1:0:0:1', '2001:db8::1:0:0:1'],
    ['2001:db8:0:1:1:1:1:1', '2001:db8:0:1:1:1:1:1'],
    ['fe80::1:2:3:4', 'fe80::1:2:3:4'],
    ['1:2:3:4:5:6:7::', '1:2:3:4:5:6:7:0'],
    ['::ffff:127.0.0.5', '127.0.0.5'],
    ['::FFFF:7f00:5', '127.0.0.5'],
    ['64:ff9b::192.0.2.33', '64:ff9b::c000:221'],
  ])('accepts IPv6 %s as %s', (ip, canonical) => {
    expect(isIpv6(ip)).toBe(true);
    expect(canonicalIp(ip)).toBe(canonical);
  });

  it.each([
    '1:2:3:4:5:6:7:8:9',
    '1:2:3:4:5:6:7',
    '1::2::3',
    '12345::1',
    'fe80::1%eth0',
    '[::1]',
    '::ffff:256.0.0.1',
    '1.2.3.4::',
    ':::',
    'g::1',
    '1:2:3:4:5:6:7:8::',
  ])('refuses IPv6-looking %j', (ip) => {
    expect(isValidIp(ip)).toBe(false);
  });

  it('compares addresses by value', () => {
    expect(sameIp('2001:db8::1', '2001:DB8:0:0:0:0:0:1')).toBe(true);
    expect(sameIp('::ffff:10.0.0.1', '10.0.0.1')).toBe(true);
    expect(sameIp('10.0.0.1', '10.0.0.2')).toBe(false);
    expect(sameIp('nope', 'nope')).toBe(false);
  });
});

describe('firewall request schemas', () => {
  it('defaults the type to HOUR_1 and normalises the IP', () => {
    expect(firewallRequestSchema.parse({ ip: ' ::ffff:127.0.0.5 ' })).toEqual({ ip: '127.0.0.5', type: 'HOUR_1' });
    expect(firewallRequestSchema.parse({ ip: '2001:DB8::1', type: 'UNLIMITED' })).toEqual({ ip: '2001:db8::1', type: 'UNLIMITED' });
  });

  it('reports each failure with a message key', () => {
    const bad = (v: unknown) => firewallRequestSchema.safeParse(v).error?.issues.map((i) => [i.path.join('.'), i.message]);
    expect(bad({ ip: '300.1.1.1' })).toEqual([['ip', 'firewall.invalid_ip']]);
    expect(bad({ ip: '1.2.3.4', type: 'HOUR_5' })).toEqual([['type', 'firewall.invalid_type']]);
    expect(bad({ ip: 'x'.repeat(65) })?.[0]).toEqual(['ip', 'firewall.invalid_ip']);
    for (const ip of ['0.0.0.0', '::', '::ffff:0.0.0.0', '0:0:0:0:0:0:0:0', '255.255.255.255']) expect(bad({ ip }), ip).toEqual([['ip', 'firewall.not_a_host']]);
    expect(firewallRequestSchema.safeParse({ ip: '1.2.3.4', extra: 1 }).error?.issues[0]?.code).toBe('unrecognized_keys');
    expect(firewallRequestSchema.safeParse({}).error?.issues[0]?.path).toEqual(['ip']);
    expect(firewallRequestSchema.safeParse({ ip: 1234 }).success).toBe(false);
  });

});

describe('firewall entry ids', () => {
  it('parses canonical ids only', () => {
    expect(firewallEntryParamsSchema.parse({ id: '12' })).toEqual({ id: 12 });
    expect(firewallEntryParamsSchema.safeParse({ id: 'abc' }).success).toBe(false);
    expect(firewallEntryParamsSchema.safeParse({ id: '99999999999' }).success).toBe(false);
    expect(firewallEntryParamsSchema.safeParse({ id: '2147483648' }).success).toBe(false);
    expect(firewallEntryParamsSchema.safeParse({ id: '1e3' }).success).toBe(false);
    expect(firewallEntryParamsSchema.safeParse({ id: '0' }).success).toBe(false);
  });
});
