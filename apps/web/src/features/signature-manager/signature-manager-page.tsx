/**
 * Signature manager (`/utils/signature_manager`, the profile menu's Signature; ACL /v1/signatures;
 * docs/decisions/047-signature-manager.md). Everyone with read edits their own signature; with
 * write, two more tabs: other people's signatures and the company templates. The tab is in the URL
 * (`?tab=people|templates`), so a link opens it.
 */
import type { SignatureTemplate } from '@backoffice/core/signatures';
import { Alert, App, Button, Card, Form, Select, Skeleton, Tabs, Typography } from 'antd';
import { useCallback, useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useSearchParams } from 'react-router';
import { useLeaveGuard } from '../../components/builders/use-leave-guard.ts';
import { errorText } from '../../lib/api.ts';
import { Page } from '../../shell/page.tsx';
import { SignatureEditor } from './signature-editor.tsx';
import { usePeople, useMySignature, useSignatureDetail, useTemplates } from './signatures-api.ts';
import { TemplatesPanel } from './templates-panel.tsx';
import './signature-manager.css';

type DirtyReporter = (dirty: boolean) => void;

function PeoplePanel({ templates, onDirtyChange }: { templates: readonly SignatureTemplate[]; onDirtyChange: DirtyReporter }) {
  const { t } = useTranslation();
  const { modal } = App.useApp();
  const [q, setQ] = useState('');
  const [personId, setPersonId] = useState<number | null>(null);
  const [dirty, setDirty] = useState(false);
  const report = useCallback(
    (v: boolean) => {
      setDirty(v);
      onDirtyChange(v);
    },
    [onDirtyChange],
  );
  // Another person replaces the form: with unsaved changes, ask first.
  const choose = (id: number) => {
    if (!dirty || id === personId) return setPersonId(id);
    modal.confirm({
      title: t('resource.unsaved_title'),
      content: t('resource.unsaved_body'),
      okText: t('resource.unsaved_leave'),
      cancelText: t('resource.unsaved_stay'),
      okButtonProps: { danger: true },
      onOk: () => setPersonId(id),
    });
  };
  const people = usePeople(q, true);
  const detail = useSignatureDetail({ kind: 'person', id: personId ?? 0 }, personId !== null);
  const options = (people.data ?? []).map((p) => ({ value: p.user_id, label: `${p.name} · ${p.mail} (${t(p.has_signature ? 'signatures.person_has' : 'signatures.person_none')})` }));
  return (
    <div data-testid="signature-people">
      <Form layout="vertical" component="div">
        <Form.Item label={t('signatures.person')} htmlFor="signature-person">
          <Select
            id="signature-person"
            showSearch={{ filterOption: false, onSearch: setQ }}
            value={personId ?? undefined}
            placeholder={t('signatures.person_pick')}
            options={options}
            loading={people.isFetching}
            onChange={(v: number) => choose(v)}
            style={{ maxWidth: 560, width: '100%' }}
            data-testid="signature-person"
          />
        </Form.Item>
      </Form>
      {personId === null ? null : detail.isError ? (
        <Alert type="error" showIcon title={errorText(detail.error)} />
      ) : detail.data ? (
        <SignatureEditor key={personId} source={{ kind: 'person', id: personId }} initial={detail.data.signature} templates={templates} testId="signature-person" onDirtyChange={report} />
      ) : (
        <Skeleton active />
      )}
    </div>
  );
}

export default function SignatureManagerPage() {
  const { t } = useTranslation();
  const [params, setParams] = useSearchParams();
  const me = useMySignature();
  const templates = useTemplates();
  const [dirty, setDirty] = useState<Record<string, boolean>>({});
  const report = useCallback((key: string, value: boolean) => setDirty((d) => (d[key] === value ? d : { ...d, [key]: value })), []);
  const reporters = useMemo(
    () => ({ mine: (v: boolean) => report('mine', v), people: (v: boolean) => report('people', v), templates: (v: boolean) => report('templates', v) }),
    [report],
  );
  useLeaveGuard(Object.values(dirty).some(Boolean));

  const failed = me.error ?? templates.error;
  if (failed) {
    return (
      <Page title={t('signatures.title')} testId="signature-manager">
        <Alert
          type="error"
          showIcon
          title={errorText(failed)}
          action={
            <Button onClick={() => void Promise.all([me.refetch(), templates.refetch()])}>{t('common.retry')}</Button>
          }
        />
      </Page>
    );
  }
  if (!me.data || !templates.data) {
    return (
      <Page title={t('signatures.title')} testId="signature-manager">
        <Card>
          <Skeleton active />
        </Card>
      </Page>
    );
  }

  const manage = me.data.can_manage;
  const tab = manage && ['people', 'templates'].includes(params.get('tab') ?? '') ? params.get('tab')! : 'mine';
  const mine = <SignatureEditor key="me" source={{ kind: 'me' }} initial={me.data.signature} templates={templates.data} testId="signature" onDirtyChange={reporters.mine} />;
  return (
    <Page title={t('signatures.title')} testId="signature-manager">
      <Typography.Paragraph type="secondary">{t('signatures.intro')}</Typography.Paragraph>
      {manage ? (
        <Tabs
          activeKey={tab}
          onChange={(key) => setParams(key === 'mine' ? {} : { tab: key }, { replace: true })}
          items={[
            { key: 'mine', label: t('signatures.tab.mine'), children: mine },
            { key: 'people', label: t('signatures.tab.people'), children: <PeoplePanel templates={templates.data} onDirtyChange={reporters.people} /> },
            { key: 'templates', label: t('signatures.tab.templates'), children: <TemplatesPanel templates={templates.data} me={me.data.signature} onDirtyChange={reporters.templates} /> },
          ]}
        />
      ) : (
        mine
      )}
    </Page>
  );
}
