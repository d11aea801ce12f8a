/**
 * One billing account, in a drawer over the list (`?account={id}&tab=…` in the URL): its statement
 * (figures per currency, credit, the month-by-month lines and the payments), its billing
 * information (the company, or the spec's 'Inexisting data in user_billinginfo table'), its billing
 * terms (the resource layer's form: the same schema as the API, errors next to the fields, the
 * 409 dialog, a prompt before leaving with unsaved changes) and the history of its terms.
 */
import { DeleteOutlined, PlusOutlined } from '@ant-design/icons';
import {
  CONTACT_ROLES,
  MAX_BILLING_CONTACTS,
  billingContactSchema,
  billingTermsForm,
  type AccountLine,
  type AccountPayment,
  type BillingAccountDetail,
  type BillingContact,
} from '@backoffice/core/billing-accounts';
import type { BillingSide } from '@backoffice/core/billing-api';
import { formatMoney } from '@backoffice/core/format';
import { Alert, App, Button, Descriptions, Drawer, Empty, Form, Input, List, Result, Select, Skeleton, Table, Tabs, Typography, type TableColumnsType } from 'antd';
import { useMemo, useState, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { MoneyCell } from '../../components/money-cell.tsx';
import { useLocale } from '../../components/use-locale.ts';
import { useNotice } from '../../components/use-notice.ts';
import { errorText } from '../../lib/api.ts';
import { i18n } from '../../lib/i18n.ts';
import { usePermission } from '../../lib/permission.tsx';
import { useViewport } from '../../lib/use-viewport.ts';
import { StatusTag, formatDateTime, optionLabel, valueText } from '../../resources/resource-cells.tsx';
import { ResourceForm } from '../../resources/resource-form.tsx';
import type { ResourceRow } from '../../resources/resource-api.ts';
import { AccountBadges, FIGURES, ScrollRegion, figureClass, monthName } from './account-parts.tsx';
import { useAccount, useAccountHistory, useSaveTerms } from './accounts-api.ts';

export const ACCOUNT_TABS = ['statement', 'info', 'terms', 'history'] as const;
export type AccountTab = (typeof ACCOUNT_TABS)[number];

const productName = (product: string) => (i18n.exists(`billing.product.${product}`) ? i18n.t(`billing.product.${product}`) : product);

// ------------------------------------------------------------------------------------ statement

function StatementTab({ account }: { account: BillingAccountDetail }) {
  const { t } = useTranslation();
  const locale = useLocale();
  const owed = account.statement.find((f) => f.currency === account.invoice_currency);
  const credit =
    account.billing_mode === 'prepayment'
      ? t('billing_account.credit.prepayment')
      : account.credit_limit === null
        ? t('billing_account.credit.no_limit')
        : t('billing_account.credit.used', {
            owed: formatMoney(owed?.outstanding ?? '0', account.invoice_currency, locale),
            limit: formatMoney(account.credit_limit, account.invoice_currency, locale),
          });
  const lineColumns: TableColumnsType<AccountLine> = [
    { key: 'month', title: t('billing_account.line.month'), render: (_, l) => <span className="bo-acc-nowrap">{monthName(l.month, locale)}</span> },
    { key: 'product', title: t('billing_account.line.product'), render: (_, l) => productName(l.product) },
    { key: 'state', title: t('billing_account.line.state'), render: (_, l) => <StatusTag tone={l.state === 'invoiced' ? 'ok' : 'info'}>{t(`billing.state.${l.state}`)}</StatusTag> },
    { key: 'billed', title: t('billing_account.line.billed'), align: 'right', render: (_, l) => <MoneyCell amount={l.revenue_gross} currency={l.currency} /> },
    { key: 'paid', title: t('billing_account.line.paid'), align: 'right', render: (_, l) => <MoneyCell amount={l.paid} currency={l.currency} /> },
    { key: 'pending', title: t('billing_account.line.pending'), align: 'right', render: (_, l) => <MoneyCell amount={l.pending} currency={l.currency} /> },
    {
      key: 'payment',
      title: t('billing_account.line.payment'),
      render: (_, l) => (
        <StatusTag tone={l.badge === 'full_paid' ? 'ok' : l.badge === 'charged' ? 'info' : l.overdue ? 'bad' : 'off'}>{t(`billing.badge.${l.badge}`)}</StatusTag>
      ),
    },
    {
      key: 'due',
      title: t('billing_account.line.due_date'),
      render: (_, l) => (
        <span className="bo-acc-nowrap">
          {l.due_date}
          {l.overdue ? (
            <>
              {' '}
              <StatusTag tone="bad" testId="account-line-overdue">
                {t('billing_account.line.overdue')}
              </StatusTag>
            </>
          ) : null}
        </span>
      ),
    },
    { key: 'document', title: t('billing_account.line.document'), render: (_, l) => l.document_id ?? <span className="bo-res-empty">—</span> },
  ];
  const paymentColumns: TableColumnsType<AccountPayment> = [
    { key: 'paid_on', title: t('billing_account.payment.paid_on'), render: (_, p) => <span className="bo-acc-nowrap">{p.paid_on}</span> },
    { key: 'amount', title: t('billing_account.payment.amount'), align: 'right', render: (_, p) => <MoneyCell amount={p.amount} currency={p.currency} /> },
    { key: 'row', title: t('billing_account.payment.row'), render: (_, p) => `${monthName(p.month, locale)} · ${productName(p.product)}` },
    { key: 'reference', title: t('billing_account.payment.reference'), render: (_, p) => p.reference || <span className="bo-res-empty">—</span> },
    { key: 'document', title: t('billing_account.line.document'), render: (_, p) => p.document_id ?? <span className="bo-res-empty">—</span> },
    { key: 'source', title: t('billing_account.payment.source'), render: (_, p) => t(`billing_account.payment.source.${p.source}`, { defaultValue: p.source }) },
  ];
  return (
    <div className="bo-acc-statement" data-testid="account-statement">
      {account.statement.length === 0 ? (
        <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description={t('billing_account.statement.empty')} />
      ) : (
        <div className="bo-acc-figures">
          {account.statement.map((f) => (
            <section key={f.currency} className="bo-acc-figures__currency" aria-label={f.currency} data-testid={`account-figures-${f.currency}`}>
              <dl>
                {FIGURES.map((k) => (
                  <div key={k} className={figureClass(k, f[k])} data-testid={`account-figure-${k}`}>
                    <dt>{t(`billing_account.figure.${k}`)}</dt>
                    <dd>
                      <MoneyCell amount={f[k]} currency={f.currency} />
                    </dd>
                  </div>
                ))}
              </dl>
            </section>
          ))}
        </div>
      )}
      <Typography.Paragraph className="bo-acc-credit">
        <Typography.Text strong>{t('billing_account.credit')}:</Typography.Text> <span data-testid="account-credit">{credit}</span>
      </Typography.Paragraph>
      <Typography.Paragraph type="secondary">{t('billing_account.statement.rule', { date: account.today })}</Typography.Paragraph>
      <h3 className="bo-acc-h3">{t('billing_account.lines')}</h3>
      {account.lines_truncated ? <Alert type="info" showIcon title={t('billing_account.lines_truncated', { count: account.lines.length })} /> : null}
      <ScrollRegion label={t('billing_account.lines')}>
        <Table<AccountLine>
          rowKey="id"
          size="small"
          columns={lineColumns}
          dataSource={account.lines}
          pagination={account.lines.length > 24 ? { pageSize: 24, showSizeChanger: false, size: 'small' } : false}
          scroll={{ x: 'max-content' }}
          locale={{ emptyText: <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description={t('billing_account.statement.empty')} /> }}
          data-testid="account-lines"
        />
      </ScrollRegion>
      <h3 className="bo-acc-h3">{t('billing_account.payments')}</h3>
      <ScrollRegion label={t('billing_account.payments')}>
        <Table<AccountPayment>
          rowKey="id"
          size="small"
          columns={paymentColumns}
          dataSource={account.payments}
          pagination={account.payments.length > 12 ? { pageSize: 12, showSizeChanger: false, size: 'small' } : false}
          scroll={{ x: 'max-content' }}
          locale={{ emptyText: <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description={t('billing_account.payments.empty')} /> }}
          data-testid="account-payments"
        />
      </ScrollRegion>
    </div>
  );
}

// ------------------------------------------------------------------------------------ billing info

function ContactsList({ contacts }: { contacts: readonly BillingContact[] }) {
  const { t } = useTranslation();
  if (contacts.length === 0) return <Typography.Text type="secondary">{t('billing_account.contacts.none')}</Typography.Text>;
  return (
    <ul className="bo-acc-contacts-list">
      {contacts.map((c) => (
        <li key={c.email}>
          {c.name} · <a href={`mailto:${c.email}`}>{c.email}</a> · {t(`billing_account.contact_role.${c.role}`)}
        </li>
      ))}
    </ul>
  );
}

function InfoTab({ account }: { account: BillingAccountDetail }) {
  const { t } = useTranslation();
  const c = account.company;
  const dash = <span className="bo-res-empty">—</span>;
  const partner = [
    { key: 'vat', label: t('demand_partner.vat_id'), children: account.vat_id ?? dash },
    { key: 'to', label: t('billing_account.info.invoice_to'), children: account.billing_email ?? c?.billing_email ?? dash },
    { key: 'contacts', label: t('billing_account.contacts'), children: <ContactsList contacts={account.billing_contacts} />, span: 'filled' as const },
  ];
  return (
    <div data-testid="account-info">
      {account.missing.length > 0 ? (
        <Alert
          type="error"
          showIcon
          className="bo-acc-gap"
          data-testid="account-info-missing"
          title={t('common.no_billinginfo')}
          description={
            account.missing.includes('company')
              ? t('billing_account.missing.help_no_company')
              : t('billing_account.missing.help', { parts: account.missing.map((m) => t(`billing_account.missing.${m}`)).join(', ') })
          }
        />
      ) : null}
      {c ? (
        <Descriptions
          bordered
          size="small"
          className="bo-acc-gap"
          column={{ xs: 1, sm: 1, md: 2 }}
          items={[
            { key: 'legal', label: t('company.legal_name'), children: c.legal_name },
            { key: 'trade', label: t('billing_account.info.trade_name'), children: c.trade_name ?? dash },
            { key: 'tax', label: t('company.tax_id'), children: c.tax_id || dash },
            { key: 'country', label: t('company.country'), children: optionLabel({ label: 'company.country', type: 'enum' }, c.country, i18n.language) },
            { key: 'address', label: t('company.address'), children: c.address.trim() ? `${c.address}, ${c.postal_code} ${c.city}` : dash, span: 'filled' },
            { key: 'mail', label: t('company.billing_email'), children: c.billing_email || dash },
            { key: 'iban', label: t('company.iban'), children: c.iban ?? dash },
            { key: 'currency', label: t('company.currency'), children: c.currency },
          ]}
        />
      ) : null}
      <Descriptions bordered size="small" column={{ xs: 1, sm: 1, md: 2 }} items={partner} />
    </div>
  );
}

// ------------------------------------------------------------------------------------ terms

/** The billing contacts' editor: name, e-mail and role each; invalid inputs marked once the form shows an error here. */
function ContactsInput({ id, value = [], onChange }: { id?: string; value?: BillingContact[]; onChange?: (v: BillingContact[]) => void }) {
  const { t } = useTranslation();
  const { status } = Form.Item.useStatus();
  const set = (i: number, patch: Partial<BillingContact>) => onChange?.(value.map((c, j) => (j === i ? { ...c, ...patch } : c)));
  const bad = (c: BillingContact, field: keyof BillingContact) =>
    status === 'error' && !billingContactSchema.shape[field].safeParse(c[field]).success ? ('error' as const) : undefined;
  return (
    <div id={id} className="bo-acc-contacts" data-testid="account-contacts">
      {value.map((c, i) => (
        <div key={i} className="bo-acc-contact" role="group" aria-label={`${t('billing_account.contacts')} ${i + 1}`}>
          <Input aria-label={`${t('billing_account.contact_name')} ${i + 1}`} placeholder={t('billing_account.contact_name')} value={c.name} status={bad(c, 'name')} onChange={(e) => set(i, { name: e.target.value })} maxLength={120} />
          <Input
            aria-label={`${t('billing_account.contact_email')} ${i + 1}`}
            placeholder={t('billing_account.contact_email')}
            type="email"
            value={c.email}
            status={bad(c, 'email')}
            onChange={(e) => set(i, { email: e.target.value })}
            maxLength={254}
          />
          <Select
            aria-label={`${t('billing_account.contact_role')} ${i + 1}`}
            placeholder={t('billing_account.contact_role')}
            value={c.role || undefined}
            status={bad(c, 'role')}
            onChange={(role: BillingContact['role']) => set(i, { role })}
            options={CONTACT_ROLES.map((r) => ({ value: r, label: t(`billing_account.contact_role.${r}`) }))}
            className="bo-acc-contact__role"
          />
          <Button aria-label={t('billing_account.contact_remove', { n: i + 1 })} icon={<DeleteOutlined />} onClick={() => onChange?.(value.filter((_, j) => j !== i))} />
        </div>
      ))}
      {value.length < MAX_BILLING_CONTACTS ? (
        <Button icon={<PlusOutlined />} onClick={() => onChange?.([...value, { name: '', email: '', role: '' as BillingContact['role'] }])} data-testid="account-contact-add">
          {t('billing_account.contact_add')}
        </Button>
      ) : null}
    </div>
  );
}

function TermsTab({ side, account, onDirtyChange }: { side: BillingSide; account: BillingAccountDetail; onDirtyChange: (dirty: boolean) => void }) {
  const { t } = useTranslation();
  const notice = useNotice();
  const def = useMemo(() => billingTermsForm(side), [side]);
  const canWrite = usePermission(def.acl, 'write');
  const save = useSaveTerms(side);
  const submit = async (values: Record<string, unknown>) => {
    await save.mutateAsync({ id: account.id, body: values });
    void notice.success(t('billing_account.saved'));
  };
  return (
    <div data-testid="account-terms">
      {!canWrite ? <Alert type="info" showIcon className="bo-acc-gap" title={t('billing_account.read_only')} /> : null}
      <ResourceForm
        def={def}
        row={account as unknown as ResourceRow}
        onSubmit={submit}
        disabled={!canWrite}
        inputs={{ billing_contacts: <ContactsInput /> }}
        onDirtyChange={onDirtyChange}
      />
      <ul className="bo-acc-help" data-testid="account-terms-help">
        {(
          [
            ['billing_account.credit_limit', 'billing_account.credit_limit_help'],
            ['demand_partner.billing_email', 'billing_account.billing_email_help'],
            ['demand_partner.vat_id', 'billing_account.vat_id_help'],
          ] as const
        ).map(([label, help]) => (
          <li key={label}>
            <strong>{t(label)}</strong>: {t(help)}
          </li>
        ))}
      </ul>
      <Typography.Paragraph type="secondary" className="bo-acc-note">
        {t('billing_account.terms_note')}
      </Typography.Paragraph>
    </div>
  );
}

// ------------------------------------------------------------------------------------ history

function HistoryTab({ side, id }: { side: BillingSide; id: number }) {
  const { t } = useTranslation();
  const locale = useLocale();
  const def = useMemo(() => billingTermsForm(side), [side]);
  const history = useAccountHistory(side, id, true);
  if (history.isPending) return <Skeleton active />;
  if (history.isError) return <Alert type="error" showIcon title={errorText(history.error)} />;
  if (history.data.length === 0) return <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description={t('billing_account.history.empty')} />;
  const verb = (action: string) => {
    const own = `resource.history.action.${action}`;
    return i18n.exists(own) ? t(own) : t(action.endsWith('.create') ? 'resource.history.created' : 'resource.history.updated');
  };
  return (
    <List
      className="bo-res-history"
      dataSource={history.data}
      data-testid="account-history"
      renderItem={(e) => (
        <List.Item key={e.id} data-testid="account-history-entry">
          <div>
            <div>
              <Typography.Text strong>{t('billing_account.history.by', { action: verb(e.action), name: e.actor.name ?? t('resource.nobody') })}</Typography.Text>{' '}
              <Typography.Text type="secondary">
                {formatDateTime(e.at, locale)}
                {e.ip ? ` · ${t('resource.history.from_ip', { ip: e.ip })}` : ''}
                {e.simulated_by ? ` · ${t('billing_account.history.simulating', { admin: e.simulated_by.name ?? '?' })}` : ''}
              </Typography.Text>
            </div>
            <ul className="bo-res-history__changes">
              {Object.entries(e.changes).map(([field, [before, after]]) => (
                <li key={field}>
                  <Typography.Text type="secondary">{def.fields[field] ? t(def.fields[field].label) : field}:</Typography.Text>{' '}
                  <del>{valueText(def.fields[field], before, locale)}</del> → <ins>{valueText(def.fields[field], after, locale)}</ins>
                </li>
              ))}
            </ul>
          </div>
        </List.Item>
      )}
    />
  );
}

// ------------------------------------------------------------------------------------ drawer

export interface AccountDrawerProps {
  side: BillingSide;
  id: number | null;
  tab: AccountTab;
  onTab: (tab: AccountTab) => void;
  onClose: () => void;
}

export function AccountDrawer({ side, id, tab, onTab, onClose }: AccountDrawerProps) {
  const { t } = useTranslation();
  const { modal } = App.useApp();
  const { isMobile } = useViewport();
  const account = useAccount(side, id);
  const [dirty, setDirty] = useState(false);
  const close = () => {
    if (!dirty) return onClose();
    modal.confirm({
      title: t('resource.unsaved_title'),
      content: t('resource.unsaved_body'),
      okText: t('resource.unsaved_leave'),
      cancelText: t('resource.unsaved_stay'),
      okButtonProps: { danger: true, id: 'account-unsaved-leave' },
      onOk: () => {
        setDirty(false);
        onClose();
      },
    });
  };
  const data = account.data;
  let body: ReactNode;
  if (account.isError) {
    body = <Result status={account.error.httpStatus === 404 ? '404' : 'error'} title={errorText(account.error)} />;
  } else if (!data || data.id !== id) {
    body = <Skeleton active paragraph={{ rows: 8 }} />;
  } else {
    body = (
      <div className="bo-res-detail bo-acc-detail" data-testid="account-detail" data-account={data.id}>
        {data.company ? <Typography.Paragraph type="secondary">{data.company.legal_name}</Typography.Paragraph> : null}
        <AccountBadges account={data} />
        <Tabs
          activeKey={tab}
          onChange={(k) => onTab(k as AccountTab)}
          items={[
            { key: 'statement', label: t('billing_account.tab.statement'), children: <StatementTab account={data} /> },
            { key: 'info', label: t('billing_account.tab.info'), children: <InfoTab account={data} /> },
            { key: 'terms', label: t('billing_account.tab.terms'), children: <TermsTab side={side} account={data} onDirtyChange={setDirty} /> },
            { key: 'history', label: t('billing_account.tab.history'), children: <HistoryTab side={side} id={data.id} /> },
          ]}
        />
      </div>
    );
  }
  return (
    <Drawer
      open={id !== null}
      onClose={close}
      size={isMobile ? '100%' : 960}
      title={<span data-testid="account-title">{data && data.id === id ? data.name : '\u00a0'}</span>}
      closable={{ 'aria-label': t('billing_account.close') }}
      destroyOnHidden
      data-testid="account-drawer"
    >
      {body}
    </Drawer>
  );
}

