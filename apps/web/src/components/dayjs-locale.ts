/**
 * dayjs locale set-up for the date inputs (spec section 9: weeks start on Monday, in en and
 * es). antd's pickers ask dayjs for the first day of the week of the ConfigProvider locale
 * (en_US -> 'en', es_ES -> 'es'); dayjs' 'es' already starts on Monday, 'en' is changed
 * here. Importing this module is enough; the shell calls setDayjsLocale when the language
 * changes so dayjs-formatted month and day names follow it.
 */
import dayjs from 'dayjs';
import 'dayjs/locale/es';
import localeData from 'dayjs/plugin/localeData';
import updateLocale from 'dayjs/plugin/updateLocale';

dayjs.extend(localeData);
dayjs.extend(updateLocale);
dayjs.updateLocale('en', { weekStart: 1 });

export type DayjsLocale = 'en' | 'es';

export function setDayjsLocale(locale: DayjsLocale): void {
  dayjs.locale(locale);
}

/** 1 = Monday (checked by the tests for both locales). */
export function firstDayOfWeek(locale: DayjsLocale): number {
  return dayjs().locale(locale).localeData().firstDayOfWeek();
}
