/**
 * Precreation screens of one side: onboarding drafts on the resource layer (a draft tab, what the
 * approval creates, the checklist), their state as a tag, and the workflow's commands on a draft's
 * page: send for review, approve (which creates the publisher or partner, after a confirmation),
 * reject with a reason, clone (performance side), and a link to what was created.
 */
import { CheckOutlined, CloseOutlined, CopyOutlined, ExportOutlined, SendOutlined } from '@ant-design/icons';
import type { PartnerSide } from '@backoffice/core/resources/demand-partners';
import { CLONE_DROPS, EDITABLE_STATES, PRECREATION_CHECKLIST, precreation, type PrecreationState } from '@backoffice/core/resources/precreation';
import { useQueryClient } from '@tanstack/react-query';
import { App, Button, Input } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { useLocale } from '../../components/use-locale.ts';
import { useNotice } from '../../components/use-notice.ts';
import { api, errorText, isSessionError } from '../../lib/api.ts';
import { FetchError } from '../../lib/fetch-client.ts';
import { usePermission } from '../../lib/permission.tsx';
import { resourceKey, type ResourceRow } from '../../resources/resource-api.ts';
import { statusCell, type StatusTone } from '../../resources/resource-cells.tsx';
import { translated } from '../../resources/resource-form.tsx';
import { ResourcePage } from '../../resources/resource-page.tsx';

const TONE: Record<PrecreationState, StatusTone> = { draft: 'info', in_review: 'info', approved: 'ok', created: 'ok', rejected: 'bad' };

/** Where the entity a draft created lives. */
function createdPath(row: ResourceRow): string | null {
  if (typeof row.created_entity_id !== 'number') return null;
  const side = row.side === 'ssp' ? 'ssp' : 'performance';
  return row.target === 'publisher' ? `/partners/publishers_${side}/${row.created_entity_id}` : `/partners/demandpartners_${side}/${row.created_entity_id}`;
}

function Actions({ row, basePath, canClone }: { row: ResourceRow; basePath: string; canClone: boolean }) {
  const { t } = useTranslation();
  const locale = useLocale();
  const { modal } = App.useApp();
  const notice = useNotice();
  const client = useQueryClient();
  const canWrite = usePermission(precreation.acl, 'write');
  const [busy, setBusy] = useState<string | null>(null);
  const state = row.state as PrecreationState;
  const name = String(row.name);

  const run = async (verb: 'submit' | 'approve' | 'reject', body: Record<string, unknown>, done: string) => {
    setBusy(verb);
    try {
      await api.request(`precreation/:id/actions/${verb}`, { method: 'POST', params: { id: row.id }, body: { version: row.version, ...body } });
      void notice.success(done);
    } catch (error) {
      if (isSessionError(error)) return;
      // Approval's missing items, by the fields' labels.
      const errors = error instanceof FetchError ? error.details.errors : undefined;
      if (errors) {
        modal.error({
          title: errorText(error),
          content: (
            <ul data-testid="precreation-problems">
              {Object.entries(errors).map(([field, key]) => (
                <li key={field}>
                  {precreation.fields[field] ? t(precreation.fields[field].label) : field}: {translated(key)}
                </li>
              ))}
            </ul>
          ),
        });
      } else void notice.error(errorText(error));
    } finally {
      setBusy(null);
      void client.invalidateQueries({ queryKey: resourceKey(precreation) });
    }
  };

  const created = createdPath(row);
  return (
    <>
      {created ? (
        <Link to={`/${locale}${created}`} data-testid="precreation-open-created">
          <ExportOutlined /> {t('precreation.open_created')}
        </Link>
      ) : null}
      {canWrite && state === 'draft' ? (
        <Button icon={<SendOutlined />} loading={busy === 'submit'} onClick={() => void run('submit', {}, t('precreation.submitted'))} data-testid="precreation-submit">
          {t('precreation.submit')}
        </Button>
      ) : null}
      {canWrite && state === 'in_review' ? (
        <Button
          type="primary"
          icon={<CheckOutlined />}
          loading={busy === 'approve'}
          onClick={() =>
            modal.confirm({
              title: t('precreation.approve_confirm', { name }),
              content: t('precreation.approve_body'),
              okText: t('precreation.approve'),
              okButtonProps: { id: 'precreation-approve-confirm' },
              onOk: () => run('approve', {}, t('precreation.approved', { name })),
            })
          }
          data-testid="precreation-approve"
        >
          {t('precreation.approve')}
        </Button>
      ) : null}
      {canWrite && (state === 'draft' || state === 'in_review') ? (
        <Button
          danger
          icon={<CloseOutlined />}
          loading={busy === 'reject'}
          onClick={() => {
            let reason = '';
            modal.confirm({
              title: t('precreation.reject_confirm', { name }),
              content: <Input.TextArea aria-label={t('precreation.reject_reason')} placeholder={t('precreation.reject_reason')} maxLength={500} onChange={(e) => (reason = e.target.value)} data-testid="precreation-reject-reason" />,
              okText: t('precreation.reject'),
              okButtonProps: { danger: true, id: 'precreation-reject-confirm' },
              onOk: () => run('reject', { reason }, t('precreation.rejected')),
            });
          }}
          data-testid="precreation-reject"
        >
          {t('precreation.reject')}
        </Button>
      ) : null}
      {canWrite && canClone ? (
        <Link to={`/${locale}${basePath}/clone/${row.id}`} data-testid="precreation-clone">
          <CopyOutlined /> {t('precreation.clone')}
        </Link>
      ) : null}
    </>
  );
}

export function PrecreationScreen({ side }: { side: PartnerSide }) {
  const basePath = side === 'ssp' ? '/partners/precreation_ssp' : '/partners/precreation_perf';
  // Only the performance side has a clone route (spec section 2).
  const canClone = side === 'performance';
  return (
    <ResourcePage
      def={precreation}
      basePath={basePath}
      titleKey={side === 'ssp' ? 'precreation.title_ssp' : 'precreation.title_perf'}
      newTitleKey="precreation.new_title"
      fixed={{ side }}
      editable={(row) => EDITABLE_STATES.includes(row.state as PrecreationState)}
      cloneDrops={canClone ? [...CLONE_DROPS, ...PRECREATION_CHECKLIST] : undefined}
      cells={{ state: statusCell(precreation.fields.state!, TONE, 'precreation-state') }}
      rowActions={(row) => <Actions row={row} basePath={basePath} canClone={canClone} />}
    />
  );
}
