/**
 * Slider (spec section 9): 0-100 with marks at 20, 40, 60 and 80.
 */
import { SLIDER_MARKS, SLIDER_MAX, SLIDER_MIN, clampSlider } from '@backoffice/core/inputs';
import { Slider } from 'antd';
import type { CSSProperties } from 'react';

export interface SliderInputProps {
  value?: number;
  defaultValue?: number;
  onChange?: (value: number) => void;
  /** Called once the user lets go (for costly reactions). */
  onChangeComplete?: (value: number) => void;
  step?: number;
  disabled?: boolean;
  id?: string;
  className?: string;
  style?: CSSProperties;
  'aria-label'?: string;
}

const MARKS = Object.fromEntries(SLIDER_MARKS.map((m) => [m, String(m)]));

export function SliderInput(props: SliderInputProps) {
  const { value, defaultValue, onChange, onChangeComplete, step = 1, ...rest } = props;
  return (
    <Slider
      id={rest.id}
      className={rest.className}
      style={rest.style}
      disabled={rest.disabled}
      ariaLabelForHandle={rest['aria-label']}
      min={SLIDER_MIN}
      max={SLIDER_MAX}
      step={step}
      marks={MARKS}
      value={value === undefined ? undefined : clampSlider(value)}
      defaultValue={defaultValue}
      onChange={(next) => onChange?.(clampSlider(next))}
      onChangeComplete={(next) => onChangeComplete?.(clampSlider(next))}
    />
  );
}
