/**
 * Counter (spec sections 5 and 9): a whole number clamped to min (default 0) and max
 * (default 50), never negative unless `allowNegative`. Minus and plus buttons, typing, and
 * the arrow keys all go through the same clamp.
 */
import { MinusOutlined, PlusOutlined } from '@ant-design/icons';
import { clampCounter, counterBounds } from '@backoffice/core/inputs';
import { Button, InputNumber, Space } from 'antd';
import { useState, type CSSProperties } from 'react';
import { useTranslation } from 'react-i18next';

export interface CounterInputProps {
  value?: number | null;
  defaultValue?: number;
  onChange?: (value: number) => void;
  min?: number;
  max?: number;
  allowNegative?: boolean;
  step?: number;
  disabled?: boolean;
  status?: 'error' | 'warning';
  size?: 'small' | 'middle' | 'large';
  id?: string;
  className?: string;
  style?: CSSProperties;
  'aria-label'?: string;
}

export function CounterInput(props: CounterInputProps) {
  const { value, defaultValue, onChange, step = 1, disabled, size, ...rest } = props;
  const { t } = useTranslation();
  const rules = { min: props.min, max: props.max, allowNegative: props.allowNegative };
  const { min, max } = counterBounds(rules);
  const [inner, setInner] = useState(() => clampCounter(defaultValue ?? 0, rules));
  const current = value !== undefined && value !== null ? clampCounter(value, rules) : inner;

  const commit = (next: number | string | null) => {
    const clamped = clampCounter(next, rules);
    if (value === undefined) setInner(clamped);
    if (clamped !== current || value === null) onChange?.(clamped);
  };

  return (
    <Space.Compact className={rest.className} style={rest.style}>
      <Button
        icon={<MinusOutlined />}
        aria-label={t('inputs.counter.decrease')}
        disabled={disabled || current <= min}
        size={size}
        onClick={() => commit(current - step)}
      />
      <InputNumber
        id={rest.id}
        aria-label={rest['aria-label']}
        status={rest.status}
        size={size}
        disabled={disabled}
        min={min}
        max={max}
        step={step}
        precision={0}
        controls={false}
        inputMode="numeric"
        value={current}
        onChange={(next) => {
          // Empty while typing: wait for blur, which puts the value back.
          if (next !== null) commit(next);
        }}
        style={{ width: `${Math.max(String(max).length, String(min).length) + 4}ch`, textAlign: 'center' }}
      />
      <Button
        icon={<PlusOutlined />}
        aria-label={t('inputs.counter.increase')}
        disabled={disabled || current >= max}
        size={size}
        onClick={() => commit(current + step)}
      />
    </Space.Compact>
  );
}
