import { describe, expect, it } from 'vitest';
import { findUnsafeText, isSafeText, safeText } from './text.ts';

describe('safe text', () => {
  it('refuses a NUL and lone surrogates, and keeps every real character (pairs included)', () => {
    expect(isSafeText('Nimbus Exchange — España 📊')).toBe(true);
    expect(isSafeText('a\u0000b')).toBe(false);
    expect(isSafeText('\uD800')).toBe(false);
    expect(isSafeText('x\uDC00y')).toBe(false);
    expect(isSafeText('\uDC00\uD800')).toBe(false);
    expect(isSafeText('\uD83D\uDCCA')).toBe(true);
    expect(safeText.safeParse('ok').success).toBe(true);
    expect(safeText.safeParse('no\u0000').error?.issues[0]?.message).toBe('error.invalid_text');
  });

  it('finds the first unsafe string in a JSON value, keys included', () => {
    expect(findUnsafeText({ name: 'ok', filters: [{ values: ['ES', 'F\u0000R'] }] })).toBe('filters.0.values.1');
    expect(findUnsafeText('\uD800')).toBe('_');
    expect(findUnsafeText({ ['na\u0000me']: 1 })).toBe('na?me');
    expect(findUnsafeText({ a: 1, b: [true, null, 'fine'] })).toBeNull();
    expect(findUnsafeText(undefined)).toBeNull();
  });
});
