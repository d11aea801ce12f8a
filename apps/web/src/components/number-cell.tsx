/**
 * Numbers in tables (spec section 9): 2 decimals by default, thousands separators in the UI
 * language, tabular figures.
 */
import { formatNumber } from '@backoffice/core/format';
import { theme } from 'antd';
import type { CSSProperties } from 'react';
import { useLocale } from './use-locale.ts';

export interface NumberCellProps {
  value: string | number | null | undefined;
  decimals?: number;
  /** Text after the number, e.g. '%'. */
  suffix?: string;
  className?: string;
  style?: CSSProperties;
}

export function NumberCell({ value, decimals = 2, suffix, className, style }: NumberCellProps) {
  const locale = useLocale();
  const { token } = theme.useToken();
  const text = formatNumber(value, locale, decimals);
  return (
    <span
      className={className}
      style={{
        fontVariantNumeric: 'tabular-nums',
        whiteSpace: 'nowrap',
        color: text === '' ? token.colorTextQuaternary : undefined,
        ...style,
      }}
    >
      {text === '' ? '—' : `${text}${suffix ?? ''}`}
    </span>
  );
}
