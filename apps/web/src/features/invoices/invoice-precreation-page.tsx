/**
 * "Create invoice / Credit note" (`/billing_ssp/invoice-precreation`; issue 22): the Create
 * invoices tab drafts invoices from approved billing rows (team, months, counterparties), the
 * Credit note tab corrects an issued invoice. Tab, team, months and the chosen invoice live in the
 * URL.
 */
import { INVOICES_RESOURCE } from '@backoffice/core/invoices';
import { Tabs } from 'antd';
import { useEffect } from 'react';
import { useTranslation } from 'react-i18next';
import { usePermission } from '../../lib/permission.tsx';
import { Page } from '../../shell/page.tsx';
import { CreateInvoicesTab } from './create-invoices-tab.tsx';
import { CreditNoteTab } from './credit-note-tab.tsx';
import { precreationPatch, readPrecreationView, type PrecreationTab } from './invoices-api.ts';
import { useUrlView } from './use-url-view.ts';
import '../../resources/resources.css';
import './invoices.css';

export default function InvoicePrecreationPage() {
  const { t } = useTranslation();
  const canWrite = usePermission(INVOICES_RESOURCE, 'write');
  const canApprove = usePermission(INVOICES_RESOURCE, 'approve');
  const [view, apply] = useUrlView(readPrecreationView, precreationPatch);
  const title = t('menu.bs_invoice_precreation');
  useEffect(() => {
    document.title = `${title} · ${t('app.name')}`;
  }, [title, t]);

  return (
    <Page title={title} testId="invoice-precreation-page">
      <Tabs
        activeKey={view.tab}
        onChange={(tab) => apply({ tab: tab as PrecreationTab })}
        className="bo-inv-tabs"
        items={[
          {
            key: 'create',
            label: t('invoice.ui.tab.create'),
            children:
              view.tab === 'create' ? (
                <CreateInvoicesTab view={view} canWrite={canWrite} onChange={apply} />
              ) : null,
          },
          {
            key: 'credit',
            label: t('invoice.ui.tab.credit'),
            children:
              view.tab === 'credit' ? (
                <CreditNoteTab view={view} canApprove={canApprove} onChange={apply} />
              ) : null,
          },
        ]}
      />
    </Page>
  );
}
