import { describe, expect, it } from 'vitest';
import { isAcceptedDateTime, normalizeDateTime, parseDateTime } from './date-time.ts';

describe('accepted date-time formats', () => {
  it.each([
    ['2024-05-15 10:20', '2024-05-15T10:20:00'],
    ['2024-05-15 10:20:30', '2024-05-15T10:20:30'],
    ['2024-05-15T10:20', '2024-05-15T10:20:00'],
    ['2024-05-15T10:20:30', '2024-05-15T10:20:30'],
    ['  2024-05-15 00:00  ', '2024-05-15T00:00:00'],
  ])('accepts %j', (text, normalised) => {
    expect(isAcceptedDateTime(text)).toBe(true);
    expect(normalizeDateTime(text)).toBe(normalised);
  });

  it.each([
    '2024-05-15',
    '2024-05-15 10',
    '2024/05/15 10:20',
    '15-05-2024 10:20',
    '2024-05-15 24:00',
    '2024-05-15 10:60',
    '2024-05-15 10:20:60',
    '2024-02-30 10:20',
    '2024-05-15 10:20:30.123',
    '2024-05-15T10:20Z',
    '2024-05-15  10:20',
    '',
  ])('rejects %j', (text) => {
    expect(isAcceptedDateTime(text)).toBe(false);
    expect(normalizeDateTime(text)).toBeNull();
  });

  it('returns the parts', () => {
    expect(parseDateTime('2024-02-29 23:59:59')).toEqual({
      year: 2024,
      month: 2,
      day: 29,
      hour: 23,
      minute: 59,
      second: 59,
    });
  });
});
