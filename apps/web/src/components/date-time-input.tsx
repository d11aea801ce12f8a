/**
 * Date-time input (spec section 5): accepts YYYY-MM-DD HH:mm, also with a T separator, with or
 * without seconds, typed or picked. The value is the local date-time `YYYY-MM-DDTHH:mm:ss`
 * (no zone) or null. Future days are blocked unless allowed, like the other pickers.
 */
import { DATE_TIME_FORMATS, normalizeDateTime } from '@backoffice/core/date-time';
import { DatePicker } from 'antd';
import dayjs, { type Dayjs } from 'dayjs';
import customParseFormat from 'dayjs/plugin/customParseFormat';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { pickerDisabledDate, pickerFieldProps, type PickerFieldProps, type PickerRuleProps } from './picker-dates.ts';

dayjs.extend(customParseFormat);

export interface DateTimeInputProps extends PickerRuleProps, PickerFieldProps {
  value?: string | null;
  onChange?: (value: string | null) => void;
  /** Show and pick seconds (default true). */
  withSeconds?: boolean;
}

function toDayjs(value: string | null | undefined): Dayjs | null {
  const normal = value ? normalizeDateTime(value) : null;
  return normal ? dayjs(normal) : null;
}

export function DateTimeInput(props: DateTimeInputProps) {
  const {
    value,
    onChange,
    withSeconds = true,
    allowFuture,
    min,
    max,
    disabledDate,
    timeZone,
    ...rest
  } = props;
  const { t } = useTranslation();
  const [open, setOpen] = useState(false);
  const display = withSeconds ? DATE_TIME_FORMATS[0] : DATE_TIME_FORMATS[1];
  const isDisabled = pickerDisabledDate({ allowFuture, min, max, disabledDate, timeZone });

  /**
   * antd parses only the display shape while typing (given several formats it would re-format
   * "…08:30" to "…08:30:00" mid-typing). The other accepted shapes are read here with the core
   * rule when the person presses Enter or leaves the field.
   */
  const acceptTyped = (text: string): boolean => {
    if (dayjs(text, display, true).isValid()) return false;
    const normal = normalizeDateTime(text);
    if (!normal) return false;
    if (isDisabled(dayjs(normal))) return false;
    if (normal !== value) onChange?.(normal);
    return true;
  };

  return (
    <DatePicker
      showTime={{ format: withSeconds ? 'HH:mm:ss' : 'HH:mm' }}
      {...pickerFieldProps(rest, t(withSeconds ? 'inputs.datetime.placeholder' : 'inputs.datetime.placeholder_short'))}
      format={display}
      open={open}
      onOpenChange={setOpen}
      value={toDayjs(value)}
      onChange={(date) => onChange?.(date ? date.format('YYYY-MM-DD[T]HH:mm:ss') : null)}
      onKeyDown={(event) => {
        if (event.key === 'Enter' && acceptTyped((event.target as HTMLInputElement).value)) setOpen(false);
      }}
      onBlur={(event) => acceptTyped((event.target as HTMLInputElement).value)}
      disabledDate={isDisabled}
    />
  );
}
