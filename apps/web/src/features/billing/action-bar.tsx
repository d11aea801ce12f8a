/**
 * The bulk actions over the selected rows (spec 4): confirm, disconfirm, approve, discard,
 * accumulate for next month. Only the actions the caller's ACL allows are offered (write for
 * every change, approve to approve); each button counts the selected rows it applies to.
 */
import { BILLING_ACTIONS, type BillingAction } from '@backoffice/core/billing';
import type { BillingRowDto } from '@backoffice/core/billing-api';
import { Button, Space, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import type { BulkAction } from './use-bulk-action.tsx';

export interface ActionBarProps {
  selected: readonly BillingRowDto[];
  canWrite: boolean;
  canApprove: boolean;
  bulk: BulkAction;
  onClear: () => void;
  /** Nothing shows while no row is selected (a phone, where room is short). */
  hideEmpty?: boolean;
}

export function ActionBar({ selected, canWrite, canApprove, bulk, onClear, hideEmpty }: ActionBarProps) {
  const { t } = useTranslation();
  const offered = BILLING_ACTIONS.filter((a) => (a === 'approve' ? canApprove : canWrite));
  if (offered.length === 0 || (hideEmpty && selected.length === 0)) return null;
  const applicable = (a: BillingAction) => selected.filter((r) => r.actions.includes(a)).length;
  return (
    <div
      className="bo-bill-actionbar"
      role="group"
      aria-label={t('billing.ui.bulk_actions')}
      data-testid="billing-actionbar"
    >
      <Typography.Text className="bo-bill-actionbar__count" data-testid="billing-selected-count">
        {t('billing.ui.selected', { count: selected.length })}
      </Typography.Text>
      <Space wrap size={[8, 8]}>
        {offered.map((a) => (
          <Button
            key={a}
            type={a === 'approve' ? 'primary' : 'default'}
            danger={a === 'discard'}
            loading={bulk.busy === a}
            disabled={bulk.busy !== null && bulk.busy !== a}
            onClick={() => bulk.run(a, selected)}
            data-testid={`billing-bulk-${a}`}
          >
            {selected.length > 0
              ? `${t(`billing.action.${a}`)} (${applicable(a)})`
              : t(`billing.action.${a}`)}
          </Button>
        ))}
        {selected.length > 0 ? (
          <Button type="link" onClick={onClear} data-testid="billing-clear-selection">
            {t('billing.ui.clear_selection')}
          </Button>
        ) : null}
      </Space>
    </div>
  );
}
