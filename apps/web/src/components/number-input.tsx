/**
 * Number input (spec section 5): up to 3 decimals with a dot. The value is a decimal string
 * (`"12.345"`), so amounts stay exact; null while the field is empty or incomplete.
 * Keystrokes that would break the rule are ignored; a typed comma becomes the dot.
 */
import { DECIMAL_MAX_PLACES, parseDecimalInput } from '@backoffice/core/inputs';
import { Input } from 'antd';
import { useState, type CSSProperties, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';

export interface NumberInputProps {
  value?: string | null;
  onChange?: (value: string | null) => void;
  maxDecimals?: number;
  allowNegative?: boolean;
  disabled?: boolean;
  status?: 'error' | 'warning';
  size?: 'small' | 'middle' | 'large';
  placeholder?: string;
  prefix?: ReactNode;
  suffix?: ReactNode;
  id?: string;
  className?: string;
  style?: CSSProperties;
  'aria-label'?: string;
  onBlur?: () => void;
}

/** What may stand in the field while typing: a sign, digits, one dot, up to N decimals. */
function isPartialDecimal(text: string, maxDecimals: number, allowNegative: boolean): boolean {
  const sign = allowNegative ? '-?' : '';
  const decimals = maxDecimals > 0 ? `(\\.\\d{0,${maxDecimals}})?` : '';
  return new RegExp(`^${sign}\\d*${decimals}$`).test(text);
}

export function NumberInput(props: NumberInputProps) {
  const { value, onChange, maxDecimals = DECIMAL_MAX_PLACES, allowNegative = true, onBlur, ...rest } = props;
  const { t } = useTranslation();
  const rules = { maxDecimals, allowNegative };
  const [text, setText] = useState(value ?? '');
  const [invalid, setInvalid] = useState(false);

  // A new value from outside replaces the text unless the text already means it.
  const [seen, setSeen] = useState(value);
  if (value !== seen) {
    setSeen(value);
    if ((value ?? null) !== parseDecimalInput(text.replace(/\.$/, ''), rules)) setText(value ?? '');
  }

  const handleChange = (raw: string) => {
    const next = raw.replace(/,/g, '.').replace(/\s+/g, '');
    if (!isPartialDecimal(next, maxDecimals, allowNegative)) return;
    setText(next);
    setInvalid(false);
    // "12." while typing already means 12.
    const parsed = next === '' ? null : parseDecimalInput(next.replace(/\.$/, ''), rules);
    if (parsed !== (value ?? null) || next === '') onChange?.(parsed);
  };

  const handleBlur = () => {
    // "12." means 12; a lone "-" or "." means nothing.
    const parsed = parseDecimalInput(text.replace(/\.$/, ''), rules);
    if (parsed !== null) setText(parsed);
    else if (text !== '') setInvalid(true);
    onBlur?.();
  };

  return (
    <Input
      id={rest.id}
      className={rest.className}
      style={rest.style}
      size={rest.size}
      disabled={rest.disabled}
      placeholder={rest.placeholder}
      prefix={rest.prefix}
      suffix={rest.suffix}
      aria-label={rest['aria-label']}
      aria-invalid={invalid || rest.status === 'error' || undefined}
      title={invalid ? t('inputs.number.invalid') : undefined}
      status={invalid ? 'error' : rest.status}
      inputMode="decimal"
      autoComplete="off"
      value={text}
      onChange={(e) => handleChange(e.target.value)}
      onBlur={handleBlur}
    />
  );
}
