/**
 * "Show advertiser information" (spec 4): the counterparty a document is for, in a popover: its
 * company's billing information (as printed on an issued document; for a draft, as it is now),
 * and, for someone who can read billing, its billing account (terms, invoice e-mail, what is
 * missing) with a link to the account on the billing accounts screen.
 */
import { InfoCircleOutlined } from '@ant-design/icons';
import { billingResource } from '@backoffice/core/billing-api';
import type { BillingAccountDetail } from '@backoffice/core/billing-accounts';
import type { InvoiceDetail, InvoiceListItem } from '@backoffice/core/invoices';
import { Button, Descriptions, Popover, Spin, Typography } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useParams } from 'react-router';
import { errorText } from '../../lib/api.ts';
import { usePermission } from '../../lib/permission.tsx';
import { useApiQuery } from '../../lib/query.ts';
import { MissingTag, termsText } from './invoice-cells.tsx';

export function AdvertiserInfo({ item, detail }: { item: InvoiceListItem; detail: InvoiceDetail | null }) {
  const { t } = useTranslation();
  const { lang } = useParams();
  const [open, setOpen] = useState(false);
  const canReadBilling = usePermission(billingResource(item.team), 'read');
  const account = useApiQuery<BillingAccountDetail>(
    canReadBilling ? `billing/${item.team}/accounts/${item.id_user}` : null,
    {},
    { enabled: open, staleTime: 60_000 },
  );
  const c = detail?.customer;
  const a = account.data;
  const content = (
    <div className="bo-inv-popover" data-testid="invoice-advertiser-info">
      <Descriptions size="small" column={1} bordered>
        <Descriptions.Item label={t('invoice.col.name')}>
          {item.name} <span className="bo-inv-muted">#{item.id_user}</span>
        </Descriptions.Item>
        <Descriptions.Item label={t('invoice.ui.legal_name')}>
          {c?.legal_name || item.company_name || '—'}
        </Descriptions.Item>
        <Descriptions.Item label={t('invoice.ui.tax_id')}>{c?.tax_id || '—'}</Descriptions.Item>
        <Descriptions.Item label={t('invoice.ui.address')}>
          {c
            ? [c.address, [c.postal_code, c.city].filter(Boolean).join(' '), c.country]
                .filter(Boolean)
                .join(', ') || '—'
            : '—'}
        </Descriptions.Item>
        <Descriptions.Item label={t('invoice.ui.billing_email')}>
          {a?.billing_email ?? c?.email ?? '—'}
        </Descriptions.Item>
        <Descriptions.Item label={t('invoice.col.payment_terms')}>
          {termsText(a?.payment_terms ?? item.payment_terms, t)}
        </Descriptions.Item>
        {a ? (
          <>
            <Descriptions.Item label={t('invoice.ui.invoice_currency')}>
              {a.invoice_currency}
            </Descriptions.Item>
            {a.company?.iban ? <Descriptions.Item label="IBAN">{a.company.iban}</Descriptions.Item> : null}
          </>
        ) : null}
      </Descriptions>
      {item.state !== 'draft' ? (
        <Typography.Paragraph className="bo-inv-muted bo-inv-gap">
          {t('invoice.ui.snapshot_note')}
        </Typography.Paragraph>
      ) : null}
      {a && a.missing.length > 0 ? <MissingTag missing={a.missing} /> : null}
      {account.isFetching && !a ? <Spin size="small" /> : null}
      {account.isError ? <Typography.Text type="danger">{errorText(account.error)}</Typography.Text> : null}
      {canReadBilling ? (
        <div className="bo-inv-gap">
          <Link
            to={`/${lang ?? 'en'}/billing_${item.team}/advertiser?account=${item.id_user}`}
            data-testid="invoice-account-link"
          >
            {t('invoice.ui.open_account')}
          </Link>
        </div>
      ) : null}
    </div>
  );
  return (
    <Popover
      trigger={['click']}
      open={open}
      onOpenChange={setOpen}
      title={t('invoice.ui.advertiser_info')}
      content={content}
      placement="topRight"
    >
      <Button
        icon={<InfoCircleOutlined />}
        aria-haspopup="dialog"
        aria-expanded={open}
        data-testid="invoice-action-advertiser"
      >
        {t('invoice.ui.advertiser_info')}
      </Button>
    </Popover>
  );
}
