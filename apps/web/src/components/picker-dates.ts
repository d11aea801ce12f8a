/**
 * Glue between the core date rules (ISO strings) and antd's pickers (dayjs values).
 */
import {
  isDateDisabled,
  isIsoDate,
  todayIn,
  type CalendarUnit,
  type DateRules,
  type IsoDate,
} from '@backoffice/core/dates';
import dayjs, { type Dayjs } from 'dayjs';
import type { CSSProperties } from 'react';
import './dayjs-locale.ts';

export function toDayjs(date: IsoDate | null | undefined): Dayjs | null {
  // dayjs reads a bare YYYY-MM-DD as local midnight, which is what a calendar cell is.
  return isIsoDate(date) ? dayjs(date) : null;
}

export function fromDayjs(value: Dayjs): IsoDate {
  return value.format('YYYY-MM-DD');
}

/** antd's panel type of a cell -> the unit the core rules compare at. */
function unitOfPanel(type: string | undefined): CalendarUnit {
  switch (type) {
    case 'week':
    case 'month':
    case 'quarter':
    case 'year':
      return type;
    case 'decade':
      return 'year';
    default:
      return 'day';
  }
}

export interface PickerRuleProps {
  /** Future dates are blocked unless this is set (spec section 5). */
  allowFuture?: boolean;
  /** Earliest selectable date, `YYYY-MM-DD`. */
  min?: IsoDate;
  /** Latest selectable date, `YYYY-MM-DD`. */
  max?: IsoDate;
  /** Extra rule: return true to block a date (`YYYY-MM-DD`). */
  disabledDate?: (date: IsoDate) => boolean;
  /** IANA zone whose calendar decides what today is (default: the browser's). */
  timeZone?: string;
}

/** antd `disabledDate` built from the core rules; "today" is read at call time so it rolls over at midnight. */
export function pickerDisabledDate(props: PickerRuleProps) {
  return (current: Dayjs, info?: { type?: string }): boolean => {
    const rules: DateRules = {
      today: todayIn(new Date(), props.timeZone),
      allowFuture: props.allowFuture,
      min: props.min,
      max: props.max,
      disabledDate: props.disabledDate,
      unit: unitOfPanel(info?.type),
    };
    return isDateDisabled(fromDayjs(current), rules);
  };
}

/** antd `minDate`/`maxDate` (they stop the panels from paging past the limits). */
export function pickerLimits(props: PickerRuleProps): { minDate?: Dayjs; maxDate?: Dayjs } {
  const today = todayIn(new Date(), props.timeZone);
  const max = props.allowFuture ? props.max : props.max && props.max < today ? props.max : today;
  return { minDate: toDayjs(props.min) ?? undefined, maxDate: toDayjs(max) ?? undefined };
}

/** The field props every single-value picker (date, date-time, month) takes and hands to antd. */
export interface PickerFieldProps {
  allowClear?: boolean;
  disabled?: boolean;
  status?: 'error' | 'warning';
  size?: 'small' | 'middle' | 'large';
  placeholder?: string;
  id?: string;
  className?: string;
  style?: CSSProperties;
  'aria-label'?: string;
}

/** The antd DatePicker props of a picker's field props, with its default placeholder. */
export function pickerFieldProps(props: PickerFieldProps, placeholder: string) {
  return {
    id: props.id,
    className: props.className,
    style: props.style,
    size: props.size,
    status: props.status,
    disabled: props.disabled,
    'aria-label': props['aria-label'],
    placeholder: props.placeholder ?? placeholder,
    allowClear: props.allowClear ?? true,
  };
}
