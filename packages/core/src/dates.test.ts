import { describe, expect, it } from 'vitest';
import {
  addMonths,
  DATE_PRESETS,
  endOfUnit,
  isDateDisabled,
  isIsoDate,
  isMonthDisabled,
  monthRange,
  normalizeRange,
  parseMonth,
  presetRange,
  presetsForUnit,
  resolveRange,
  startOfUnit,
  todayIn,
  validateDateRange,
} from './dates.ts';

// A Wednesday, 2024-05-15 10:00 local time.
const NOW = new Date(2024, 4, 15, 10, 0, 0);

describe('presetRange', () => {
  it('covers every preset of the spec', () => {
    expect([...DATE_PRESETS].sort()).toEqual(
      [
        'lastQuarter',
        'thisQuarter',
        'lastMonth',
        'thisMonth',
        'last30days',
        'last7days',
        'last2days',
        'yesterday',
        'today',
      ].sort(),
    );
  });

  it.each([
    ['today', '2024-05-15', '2024-05-15'],
    ['yesterday', '2024-05-14', '2024-05-14'],
    ['last2days', '2024-05-14', '2024-05-15'],
    ['last7days', '2024-05-09', '2024-05-15'],
    ['last30days', '2024-04-16', '2024-05-15'],
    ['thisMonth', '2024-05-01', '2024-05-15'],
    ['lastMonth', '2024-04-01', '2024-04-30'],
    ['thisQuarter', '2024-04-01', '2024-05-15'],
    ['lastQuarter', '2024-01-01', '2024-03-31'],
  ] as const)('%s is %s to %s', (preset, start, end) => {
    expect(presetRange(preset, NOW)).toEqual({ start, end });
  });

  it('crosses year boundaries', () => {
    const jan1 = new Date(2025, 0, 1, 0, 30);
    expect(presetRange('yesterday', jan1)).toEqual({ start: '2024-12-31', end: '2024-12-31' });
    expect(presetRange('lastMonth', jan1)).toEqual({ start: '2024-12-01', end: '2024-12-31' });
    expect(presetRange('lastQuarter', jan1)).toEqual({ start: '2024-10-01', end: '2024-12-31' });
    expect(presetRange('last7days', jan1)).toEqual({ start: '2024-12-26', end: '2025-01-01' });
  });

  it('handles leap years and short months', () => {
    expect(presetRange('lastMonth', new Date(2024, 2, 31))).toEqual({
      start: '2024-02-01',
      end: '2024-02-29',
    });
    expect(presetRange('lastMonth', new Date(2023, 2, 31))).toEqual({
      start: '2023-02-01',
      end: '2023-02-28',
    });
  });

  it('uses the calendar of the given time zone', () => {
    const instant = new Date('2024-05-15T23:30:00Z');
    expect(presetRange('today', instant, 'UTC').start).toBe('2024-05-15');
    expect(presetRange('today', instant, 'Europe/Madrid').start).toBe('2024-05-16');
    expect(presetRange('today', instant, 'America/New_York').start).toBe('2024-05-15');
    expect(todayIn(new Date('2024-01-01T02:00:00Z'), 'America/Los_Angeles')).toBe('2023-12-31');
  });
});

describe('units (weeks start on Monday)', () => {
  it('finds the start and end of a week, month and quarter', () => {
    // 2024-05-15 is a Wednesday; 2024-05-19 a Sunday.
    expect(startOfUnit('2024-05-15', 'week')).toBe('2024-05-13');
    expect(endOfUnit('2024-05-15', 'week')).toBe('2024-05-19');
    expect(startOfUnit('2024-05-19', 'week')).toBe('2024-05-13');
    expect(startOfUnit('2024-05-13', 'week')).toBe('2024-05-13');
    expect(endOfUnit('2024-02-10', 'month')).toBe('2024-02-29');
    expect(startOfUnit('2024-12-31', 'quarter')).toBe('2024-10-01');
    expect(endOfUnit('2024-11-03', 'quarter')).toBe('2024-12-31');
  });

  it('normalises a range to whole units, cut at today unless the future is allowed', () => {
    const today = '2024-05-15';
    expect(normalizeRange({ start: '2024-05-08', end: '2024-05-10' }, 'week', { today })).toEqual({
      start: '2024-05-06',
      end: '2024-05-12',
    });
    expect(normalizeRange({ start: '2024-04-10', end: '2024-05-02' }, 'month', { today })).toEqual({
      start: '2024-04-01',
      end: '2024-05-15',
    });
    expect(
      normalizeRange({ start: '2024-04-10', end: '2024-05-02' }, 'month', { today, allowFuture: true }),
    ).toEqual({
      start: '2024-04-01',
      end: '2024-05-31',
    });
  });

  it('offers presets that fit the unit', () => {
    expect(presetsForUnit('day')).toHaveLength(9);
    expect(presetsForUnit('month')).toEqual(['thisMonth', 'lastMonth', 'thisQuarter', 'lastQuarter']);
    expect(presetsForUnit('quarter')).toEqual(['thisQuarter', 'lastQuarter']);
  });

  it('adds months clamping the day', () => {
    expect(addMonths('2024-01-31', 1)).toBe('2024-02-29');
    expect(addMonths('2024-03-15', -3)).toBe('2023-12-15');
  });
});

describe('disabled dates', () => {
  const today = '2024-05-15';
  it('blocks the future unless allowed', () => {
    expect(isDateDisabled('2024-05-15', { today })).toBe(false);
    expect(isDateDisabled('2024-05-16', { today })).toBe(true);
    expect(isDateDisabled('2024-05-16', { today, allowFuture: true })).toBe(false);
  });
  it('applies min, max and a custom rule', () => {
    const rules = {
      today,
      min: '2024-05-01',
      max: '2024-05-10',
      disabledDate: (d: string) => d === '2024-05-05',
    };
    expect(isDateDisabled('2024-04-30', rules)).toBe(true);
    expect(isDateDisabled('2024-05-01', rules)).toBe(false);
    expect(isDateDisabled('2024-05-05', rules)).toBe(true);
    expect(isDateDisabled('2024-05-11', rules)).toBe(true);
  });
  it('keeps a month cell open while one of its days is open', () => {
    expect(isDateDisabled('2024-05-01', { today, unit: 'month' })).toBe(false);
    expect(isDateDisabled('2024-06-01', { today, unit: 'month' })).toBe(true);
    expect(isDateDisabled('2024-04-01', { today, unit: 'month', min: '2024-04-20' })).toBe(false);
    expect(isDateDisabled('2024-03-01', { today, unit: 'month', min: '2024-04-20' })).toBe(true);
    expect(isDateDisabled('2024-05-13', { today, unit: 'week' })).toBe(false);
    expect(isDateDisabled('2024-01-01', { today, unit: 'year' })).toBe(false);
    expect(isDateDisabled('2025-01-01', { today, unit: 'year' })).toBe(true);
    expect(
      isDateDisabled('2024-05-01', { today, unit: 'month', disabledDate: (d) => d !== '2024-05-10' }),
    ).toBe(false);
    // The only day the custom rule leaves open is in the future: the month is closed.
    expect(
      isDateDisabled('2024-05-01', { today, unit: 'month', disabledDate: (d) => d !== '2024-05-31' }),
    ).toBe(true);
    expect(
      isDateDisabled('2024-04-01', { today, unit: 'month', disabledDate: (d) => d.startsWith('2024-04') }),
    ).toBe(true);
  });
  it('validates a whole range with a message key', () => {
    expect(validateDateRange({ start: '2024-05-01', end: '2024-05-15' }, { today })).toBeNull();
    expect(validateDateRange(null, { today })).toBe('inputs.date_range.required');
    expect(validateDateRange({ start: '2024-05-01' }, { today })).toBe('inputs.date_range.required');
    expect(validateDateRange({ start: '2024-02-30', end: '2024-03-01' }, { today })).toBe(
      'inputs.date.invalid',
    );
    expect(validateDateRange({ start: '2024-05-10', end: '2024-05-01' }, { today })).toBe(
      'inputs.date_range.order',
    );
    expect(validateDateRange({ start: '2024-05-10', end: '2024-05-16' }, { today })).toBe(
      'inputs.date.future',
    );
    expect(
      validateDateRange({ start: '2024-05-10', end: '2024-05-16' }, { today, allowFuture: true }),
    ).toBeNull();
    expect(validateDateRange({ start: '2024-04-10', end: '2024-05-01' }, { today, min: '2024-05-01' })).toBe(
      'inputs.date.before_min',
    );
    expect(validateDateRange({ start: '2024-05-01', end: '2024-05-12' }, { today, max: '2024-05-10' })).toBe(
      'inputs.date.after_max',
    );
  });
});

describe('saved ranges', () => {
  it('recomputes a preset range from today and keeps a fixed one', () => {
    expect(resolveRange({ start: '2023-01-01', end: '2023-01-07', preset: 'last7days' }, NOW)).toEqual({
      start: '2024-05-09',
      end: '2024-05-15',
      preset: 'last7days',
    });
    expect(resolveRange({ start: '2023-01-01', end: '2023-01-07' }, NOW)).toEqual({
      start: '2023-01-01',
      end: '2023-01-07',
    });
  });
});

describe('ISO dates and months', () => {
  it('accepts only real calendar dates', () => {
    expect(isIsoDate('2024-02-29')).toBe(true);
    expect(isIsoDate('2023-02-29')).toBe(false);
    expect(isIsoDate('2024-13-01')).toBe(false);
    expect(isIsoDate('2024-1-01')).toBe(false);
    expect(isIsoDate(20240101)).toBe(false);
  });
  it('reads months and checks min/max/future', () => {
    expect(parseMonth('2024-05')).toEqual({ year: 2024, month: 5 });
    expect(parseMonth('2024-13')).toBeNull();
    expect(monthRange({ year: 2024, month: 2 })).toEqual({ start: '2024-02-01', end: '2024-02-29' });
    const rules = {
      min: { year: 2024, month: 2 },
      max: { year: 2024, month: 8 },
      current: { year: 2024, month: 5 },
    };
    expect(isMonthDisabled({ year: 2024, month: 1 }, rules)).toBe(true);
    expect(isMonthDisabled({ year: 2024, month: 2 }, rules)).toBe(false);
    expect(isMonthDisabled({ year: 2024, month: 6 }, rules)).toBe(true);
    expect(isMonthDisabled({ year: 2024, month: 6 }, { ...rules, allowFuture: true })).toBe(false);
    expect(isMonthDisabled({ year: 2024, month: 9 }, { ...rules, allowFuture: true })).toBe(true);
  });
});
