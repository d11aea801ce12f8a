import { describe, expect, it } from 'vitest';
import { idList, idNumber, idParamsSchema, isIdText, lookupIdsText, MAX_ID } from './ids.ts';

describe('ids', () => {
  it('takes an id in a path only in its canonical decimal form, within PostgreSQL integer range', () => {
    expect(idParamsSchema.parse({ id: '16' })).toEqual({ id: 16 });
    expect(idParamsSchema.parse({ id: String(MAX_ID) })).toEqual({ id: MAX_ID });
    for (const bad of ['0x10', '893.0', '894e0', ' 892', '%20892', '+5', '-1', '0', '016', '', '2147483648', '99999999999999999999', '1,2']) {
      const result = idParamsSchema.safeParse({ id: bad });
      expect(result.success, bad).toBe(false);
      expect(result.error?.issues[0]?.message, bad).toBe('error.invalid_id');
    }
    expect(isIdText('10')).toBe(true);
    expect(isIdText('1e3')).toBe(false);
  });

  it('takes an id in JSON as a whole number from 1 to the maximum', () => {
    expect(idNumber.parse(7)).toBe(7);
    for (const bad of [0, -3, 1.5, MAX_ID + 1, Number.NaN, '7']) expect(idNumber.safeParse(bad).success, String(bad)).toBe(false);
  });

  it('reads lists from a query string or a JSON array, each id checked the same way', () => {
    expect(idList.parse('1,2,30')).toEqual([1, 2, 30]);
    expect(idList.parse([4, 5])).toEqual([4, 5]);
    expect(idList.parse('')).toEqual([]);
    for (const bad of ['1,0x10', '99999999999999999999', [1.5], [2147483648], '1,,2']) expect(idList.safeParse(bad).success, String(bad)).toBe(false);
  });

  it('keeps look-up id lists as text, allowing 0 (the open auction) and refusing numbers out of range', () => {
    expect(lookupIdsText.parse('0,3,17')).toBe('0,3,17');
    expect(lookupIdsText.safeParse('99999999999999999999').success).toBe(false);
    expect(lookupIdsText.safeParse('1;2').success).toBe(false);
  });
});
