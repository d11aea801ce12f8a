/**
 * Money in tables and summaries (spec section 9): EUR as €, USD as $, 2 decimals, thousands
 * separators in the UI language. Amounts may be decimal strings (kept exact). Tabular
 * figures so columns line up; negatives in the error colour when `highlightNegative`.
 */
import { formatMoney } from '@backoffice/core/format';
import { theme } from 'antd';
import type { CSSProperties } from 'react';
import { useLocale } from './use-locale.ts';

export interface MoneyCellProps {
  amount: string | number | null | undefined;
  currency: string;
  decimals?: number;
  highlightNegative?: boolean;
  className?: string;
  style?: CSSProperties;
}

export function MoneyCell({
  amount,
  currency,
  decimals,
  highlightNegative,
  className,
  style,
}: MoneyCellProps) {
  const locale = useLocale();
  const { token } = theme.useToken();
  const text = formatMoney(amount, currency, locale, decimals);
  const negative = text.startsWith('-');
  return (
    <span
      className={className}
      style={{
        fontVariantNumeric: 'tabular-nums',
        whiteSpace: 'nowrap',
        color:
          text === ''
            ? token.colorTextQuaternary
            : highlightNegative && negative
              ? token.colorError
              : undefined,
        ...style,
      }}
    >
      {text === '' ? '—' : text}
    </span>
  );
}
