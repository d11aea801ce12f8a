import dayjs from 'dayjs';
import { afterEach, describe, expect, it } from 'vitest';
import { firstDayOfWeek, setDayjsLocale } from './dayjs-locale.ts';

afterEach(() => setDayjsLocale('en'));

describe('dayjs locales', () => {
  it('start weeks on Monday in English and Spanish', () => {
    expect(firstDayOfWeek('en')).toBe(1);
    expect(firstDayOfWeek('es')).toBe(1);
  });

  it('switches month names with the language', () => {
    setDayjsLocale('es');
    expect(dayjs('2024-05-15').format('MMMM')).toBe('mayo');
    setDayjsLocale('en');
    expect(dayjs('2024-05-15').format('MMMM')).toBe('May');
  });
});
