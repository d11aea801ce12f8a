/**
 * Month input (spec sections 3 and 5): value `{year, month}` (month 1-12), optional minimum
 * and maximum, months after the current one blocked unless allowed. Shown as YYYY-MM.
 */
import {
  MONTH_DISPLAY_FORMAT,
  compareMonth,
  isMonthDisabled,
  monthOf,
  todayIn,
  type MonthValue,
} from '@backoffice/core/dates';
import { DatePicker } from 'antd';
import dayjs, { type Dayjs } from 'dayjs';
import { pickerFieldProps, type PickerFieldProps } from './picker-dates.ts';
import { useTranslation } from 'react-i18next';
import './dayjs-locale.ts';

export interface MonthInputProps extends PickerFieldProps {
  value?: MonthValue | null;
  onChange?: (value: MonthValue | null) => void;
  min?: MonthValue;
  max?: MonthValue;
  /** Months after the current one are blocked unless this is set. */
  allowFuture?: boolean;
  timeZone?: string;
}

function toDayjs(value: MonthValue | null | undefined): Dayjs | null {
  return value ? dayjs(new Date(value.year, value.month - 1, 1)) : null;
}

function fromDayjs(value: Dayjs): MonthValue {
  return { year: value.year(), month: value.month() + 1 };
}

export function MonthInput(props: MonthInputProps) {
  const { value, onChange, min, max, allowFuture, timeZone, ...rest } = props;
  const { t } = useTranslation();
  const current = () => monthOf(todayIn(new Date(), timeZone));

  const disabledDate = (date: Dayjs, info?: { type?: string }) => {
    // Year cells stay open while one of their months is.
    if (info?.type === 'year' || info?.type === 'decade') {
      return Array.from({ length: 12 }, (_, i) => ({ year: date.year(), month: i + 1 })).every((m) =>
        isMonthDisabled(m, { min, max, allowFuture, current: current() }),
      );
    }
    return isMonthDisabled(fromDayjs(date), { min, max, allowFuture, current: current() });
  };

  const now = current();
  const maxMonth = !allowFuture && (!max || compareMonth(max, now) > 0) ? now : max;
  return (
    <DatePicker
      picker="month"
      {...pickerFieldProps(rest, t('inputs.month.placeholder'))}
      format={MONTH_DISPLAY_FORMAT}
      value={toDayjs(value)}
      onChange={(date) => onChange?.(date ? fromDayjs(date) : null)}
      disabledDate={disabledDate}
      minDate={toDayjs(min) ?? undefined}
      maxDate={maxMonth ? dayjs(new Date(maxMonth.year, maxMonth.month, 0)) : undefined}
    />
  );
}
