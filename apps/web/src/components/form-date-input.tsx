/**
 * A date field of a form whose value is `YYYY-MM-DD` text, empty or null (a campaign's or a deal's
 * start and end): the app's date input, future dates allowed, clearable, as wide as its field. An
 * empty value shows as no date; a cleared one is null.
 */
import type { IsoDate } from '@backoffice/core/dates';
import { DateInput } from './date-input.tsx';

export interface FormDateInputProps {
  id?: string;
  value?: string | null;
  onChange?: (value: string | null) => void;
}

export function FormDateInput({ id, value, onChange }: FormDateInputProps) {
  return (
    <DateInput
      id={id}
      allowFuture
      allowClear
      style={{ width: '100%' }}
      value={(value || null) as IsoDate | null}
      onChange={(v) => onChange?.(v)}
    />
  );
}
