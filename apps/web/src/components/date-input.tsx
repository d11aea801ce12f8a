/**
 * Single date picker (spec sections 5 and 9): shown as YYYY/MM/DD (typing YYYY-MM-DD works
 * too), future dates blocked unless allowed, optional min/max and a custom rule, weeks from
 * Monday. The value is an ISO date `YYYY-MM-DD` or null.
 */
import { SINGLE_DATE_DISPLAY_FORMAT, type IsoDate } from '@backoffice/core/dates';
import { DatePicker } from 'antd';
import type { CSSProperties } from 'react';
import { useTranslation } from 'react-i18next';
import {
  fromDayjs,
  pickerDisabledDate,
  pickerLimits,
  toDayjs,
  type PickerRuleProps,
} from './picker-dates.ts';

export interface DateInputProps extends PickerRuleProps {
  value?: IsoDate | null;
  onChange?: (value: IsoDate | null) => void;
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

export function DateInput(props: DateInputProps) {
  const {
    value,
    onChange,
    allowFuture,
    min,
    max,
    disabledDate,
    timeZone,
    allowClear = true,
    ...rest
  } = props;
  const { t } = useTranslation();
  const rules = { allowFuture, min, max, disabledDate, timeZone };
  return (
    <DatePicker
      id={rest.id}
      className={rest.className}
      style={rest.style}
      size={rest.size}
      status={rest.status}
      disabled={rest.disabled}
      aria-label={rest['aria-label']}
      placeholder={rest.placeholder ?? t('inputs.date.placeholder')}
      allowClear={allowClear}
      format={[SINGLE_DATE_DISPLAY_FORMAT, 'YYYY-MM-DD']}
      value={toDayjs(value)}
      onChange={(date) => onChange?.(date ? fromDayjs(date) : null)}
      disabledDate={pickerDisabledDate(rules)}
      {...pickerLimits(rules)}
    />
  );
}
