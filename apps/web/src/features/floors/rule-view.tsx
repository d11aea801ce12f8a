/** How a floor rule reads on the screen: its named keys as tags, its CPM exact, its type. */
import { FLOOR_KEYS, type FloorKey } from '@backoffice/core/floors';
import { formatMoney } from '@backoffice/core/format';
import { Tag, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { StatusTag } from '../../resources/resource-cells.tsx';
import type { FloorRuleRow } from './floors-api.ts';

/** The CPM with every decimal it has (at least two): a floor of 1.2345 is not shown as 1.23. */
export function cpmText(cpm: string, currency: string, locale: string): string {
  const decimals = Math.max(2, (cpm.split('.')[1] ?? '').length);
  return formatMoney(cpm, currency, locale, decimals);
}

/** A key's value as people read it: the publisher's and partner's names, `*` as "Any". */
export function keyValue(
  rule: Pick<FloorRuleRow, 'keys' | 'publisher_name' | 'demand_partner_name'>,
  k: FloorKey,
): string | null {
  const v = rule.keys[k];
  if (v === '*') return null;
  if (k === 'publisher') return rule.publisher_name ?? `#${v}`;
  if (k === 'demand_partner') return rule.demand_partner_name ?? `#${v}`;
  return v;
}

export function KeyCell({ rule, k }: { rule: FloorRuleRow; k: FloorKey }) {
  const { t } = useTranslation();
  const v = keyValue(rule, k);
  return v === null ? (
    <span className="bo-floors-any">{t('floors.any')}</span>
  ) : (
    <span className="bo-floors-key">{v}</span>
  );
}

/** The named keys as tags ("Any request" when none). */
export function RuleKeys({ rule }: { rule: FloorRuleRow }) {
  const { t } = useTranslation();
  const named = FLOOR_KEYS.filter((k) => rule.keys[k] !== '*');
  if (named.length === 0) return <Typography.Text type="secondary">{t('floors.any')}</Typography.Text>;
  return (
    <span className="bo-floors-tags">
      {named.map((k) => (
        <Tag key={k} bordered={false}>
          <span className="bo-floors-tag-key">{t(`floors.key.${k}`)}:</span> {keyValue(rule, k)}
        </Tag>
      ))}
    </span>
  );
}

export function TypeTag({ type }: { type: 'hard' | 'soft' | string }) {
  const { t } = useTranslation();
  return (
    <StatusTag tone={type === 'soft' ? 'info' : 'off'} testId="floor-type">
      {t(`floors.type.${type}`)}
    </StatusTag>
  );
}
