/**
 * How a payout's values read in the table, the cards and the drawer: its state as a status tag,
 * its alerts (over revenue, over percentage) and why it cannot be confirmed, as tags.
 */
import type { PayoutDto, PayoutState } from '@backoffice/core/payouts';
import { Tooltip } from 'antd';
import { useTranslation } from 'react-i18next';
import { StatusTag, type StatusTone } from '../../resources/resource-cells.tsx';

const STATE_TONE: Record<PayoutState, StatusTone> = {
  pending: 'off',
  confirmed: 'info',
  approved: 'ok',
  paid: 'ok',
  held: 'bad',
  carried: 'off',
};

export function StateTag({ state, testId }: { state: PayoutState; testId?: string }) {
  const { t } = useTranslation();
  return (
    <StatusTag tone={STATE_TONE[state]} testId={testId}>
      <span data-state={state}>{t(`payout.state.${state}`)}</span>
    </StatusTag>
  );
}

/** The alerts, then "cannot be confirmed" with the reasons in a tooltip (pending payouts). */
export function AlertTags({ payout }: { payout: PayoutDto }) {
  const { t } = useTranslation();
  return (
    <span className="bo-pay-tags">
      {payout.alerts.map((a) => (
        <StatusTag key={a} tone="bad" testId={`payout-alert-${a}`}>
          {t(`payout.alert.${a}`)}
        </StatusTag>
      ))}
      {payout.blockers.length > 0 ? (
        <Tooltip title={payout.blockers.map((b) => t(b)).join(' · ')}>
          <span tabIndex={0} className="bo-pay-blocked">
            <StatusTag tone="info" testId="payout-blocked">
              {t(payout.blockers[0]!)}
              {payout.blockers.length > 1 ? ` +${payout.blockers.length - 1}` : ''}
            </StatusTag>
          </span>
        </Tooltip>
      ) : null}
    </span>
  );
}
