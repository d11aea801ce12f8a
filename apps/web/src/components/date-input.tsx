/**
 * Single date picker (spec sections 5 and 9): shown as YYYY/MM/DD (typing YYYY-MM-DD works
 * too), future dates blocked unless allowed, optional min/max and a custom rule, weeks from
 * Monday. The value is an ISO date `YYYY-MM-DD` or null.
 */
import { SINGLE_DATE_DISPLAY_FORMAT, type IsoDate } from '@backoffice/core/dates';
import { DatePicker } from 'antd';
import { useTranslation } from 'react-i18next';
import {
  fromDayjs,
  pickerDisabledDate,
  pickerFieldProps,
  pickerLimits,
  toDayjs,
  type PickerFieldProps,
  type PickerRuleProps,
} from './picker-dates.ts';

export interface DateInputProps extends PickerRuleProps, PickerFieldProps {
  value?: IsoDate | null;
  onChange?: (value: IsoDate | null) => void;
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
    ...rest
  } = props;
  const { t } = useTranslation();
  const rules = { allowFuture, min, max, disabledDate, timeZone };
  return (
    <DatePicker
      {...pickerFieldProps(rest, t('inputs.date.placeholder'))}
      format={[SINGLE_DATE_DISPLAY_FORMAT, 'YYYY-MM-DD']}
      value={toDayjs(value)}
      onChange={(date) => onChange?.(date ? fromDayjs(date) : null)}
      disabledDate={pickerDisabledDate(rules)}
      {...pickerLimits(rules)}
    />
  );
}
