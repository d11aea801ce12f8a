/**
 * The chosen app, on both SDK screens (docs/decisions/041-sdk-and-app-tracking.md): its bundle,
 * publisher, platform, store id, developer domain and the last app-ads.txt check, with "Check
 * app-ads.txt" (the publishers' ads.txt check, on the developer domain) and "Edit app details"
 * (platform, store id, developer domain; versioned, 409 explained). When an app is chosen for a
 * configuration that has no app yet, its platform, bundle and store id fill it (`onApply`); a
 * configuration for another app says so and offers to switch.
 */
import { CheckCircleOutlined, EditOutlined, SyncOutlined } from '@ant-design/icons';
import { APP_PLATFORMS, type AppPlatform } from '@backoffice/core/builders/app-shared';
import { appProfileErrors, SDK_RESOURCE, type AppAdsStatus, type SdkApp } from '@backoffice/core/sdk-apps';
import { useQueryClient } from '@tanstack/react-query';
import { Alert, Button, Descriptions, Form, Input, Modal, Radio, Space, Typography } from 'antd';
import { useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { errorText, isSessionError } from '../../lib/api.ts';
import { FetchError } from '../../lib/fetch-client.ts';
import { usePermission } from '../../lib/permission.tsx';
import { formatDateTime, StatusTag, type StatusTone } from '../../resources/resource-cells.tsx';
import { useLocale } from '../use-locale.ts';
import { useNotice } from '../use-notice.ts';
import { checkAppAds, saveAppProfile, storeSdkApp, useSdkApp } from './sdk-apps-api.ts';
import './mobile-apps.css';

const STATUS_TONE: Record<AppAdsStatus, StatusTone> = { verified: 'ok', missing_line: 'bad', unreachable: 'bad', unchecked: 'off' };

/** What the configuration says about its app. */
export interface AppOfConfig {
  platform: AppPlatform;
  bundle: string;
  storeId: string;
}

export interface AppPanelProps {
  appId: number | null;
  config: AppOfConfig;
  /** Make the configuration this app's (platform, bundle, store id). */
  onApply: (app: SdkApp & { platform: AppPlatform }) => void;
  testId: string;
}

export function AppPanel({ appId, config, onApply, testId }: AppPanelProps) {
  const { t } = useTranslation();
  const locale = useLocale();
  const notice = useNotice();
  const queries = useQueryClient();
  const canWrite = usePermission(SDK_RESOURCE, 'write');
  const app = useSdkApp(appId);
  const [checking, setChecking] = useState(false);
  const [editing, setEditing] = useState(false);
  const a = app.data && app.data.id === appId ? app.data : null;

  // A configuration without an app takes the chosen one's platform, bundle and store id, once per app.
  const applied = useRef<number | null>(null);
  useEffect(() => {
    if (!a || !a.platform || applied.current === a.id) return;
    applied.current = a.id;
    if (config.bundle.trim() === '') onApply({ ...a, platform: a.platform });
    // eslint-disable-next-line react-hooks/exhaustive-deps -- once per chosen app
  }, [a?.id, a?.platform]);

  if (appId === null) return <Alert type="info" showIcon title={t('app_tracking.app.none')} className="bo-app-panel" data-testid={`${testId}-app-none`} />;
  if (app.error) return <Alert type="error" showIcon title={t('app_tracking.app.load_failed', { message: errorText(app.error) })} className="bo-app-panel" />;
  if (!a) return <div className="bo-app-panel bo-app-panel--loading">{t('common.loading')}</div>;

  const storeId = a.platform === 'android' && a.store_id === '' ? a.bundle : a.store_id;
  const mismatch = a.platform !== null && (config.bundle !== a.bundle || config.platform !== a.platform || config.storeId !== storeId) && config.bundle.trim() !== '';
  const check = async () => {
    setChecking(true);
    try {
      const after = await checkAppAds(a.id);
      storeSdkApp(queries, after);
      const key = `publisher.ads_txt_status.${after.app_ads_txt.status}`;
      if (after.app_ads_txt.status === 'verified') void notice.success(`${t('app_tracking.app.app_ads_txt')}: ${t(key)}`);
      else void notice.warning(`${t('app_tracking.app.app_ads_txt')}: ${t(key)}`);
    } catch (e) {
      if (!isSessionError(e)) void notice.error(t('app_tracking.app.check_failed', { message: errorText(e) }));
    } finally {
      setChecking(false);
    }
  };
  const detail = (a.app_ads_txt.detail ?? {}) as { http_status?: number; records?: number; malformed?: unknown[]; error?: string };
  const facts = [
    detail.http_status !== undefined ? t('app_tracking.app.check_detail_http', { status: detail.http_status }) : null,
    detail.records !== undefined ? t('app_tracking.app.check_detail_records', { count: detail.records }) : null,
    detail.malformed && detail.malformed.length > 0 ? t('app_tracking.app.check_detail_malformed', { count: detail.malformed.length }) : null,
    detail.error ?? null,
  ].filter((x): x is string => x !== null);

  return (
    <section className="bo-app-panel" aria-label={t('app_tracking.app.title')} data-testid={`${testId}-app`}>
      <Descriptions
        size="small"
        layout="vertical"
        column={{ xs: 1, sm: 2, md: 3, lg: 3, xl: 2, xxl: 3 }}
        items={[
          { key: 'bundle', label: t('app_tracking.app.bundle'), children: <Typography.Text code>{a.bundle}</Typography.Text> },
          { key: 'publisher', label: t('app_tracking.app.publisher'), children: a.publisher.name },
          {
            key: 'platform',
            label: t('app_tracking.app.platform'),
            children: a.platform ? (
              <StatusTag tone="info" testId={`${testId}-app-platform`}>
                {t(`app_tracking.platform.${a.platform}`)}
              </StatusTag>
            ) : (
              <StatusTag tone="bad" testId={`${testId}-app-platform`}>
                {t('app_tracking.app.platform_unset')}
              </StatusTag>
            ),
          },
          { key: 'store', label: t('app_tracking.app.store_id'), children: storeId || '—' },
          { key: 'domain', label: t('app_tracking.app.developer_domain'), children: a.developer_domain ?? t('app_tracking.app.developer_domain_unset') },
          {
            key: 'ads',
            label: t('app_tracking.app.app_ads_txt'),
            span: 'filled',
            children: (
              <Space orientation="vertical" size={2}>
                <Space wrap size={6}>
                  <StatusTag tone={STATUS_TONE[a.app_ads_txt.status]} testId={`${testId}-app-ads-status`}>
                    {t(`publisher.ads_txt_status.${a.app_ads_txt.status}`)}
                  </StatusTag>
                  <Typography.Text type="secondary">
                    {a.app_ads_txt.checked_at ? t('app_tracking.app.checked_at', { date: formatDateTime(a.app_ads_txt.checked_at, locale) }) : t('app_tracking.app.never_checked')}
                  </Typography.Text>
                </Space>
                <Typography.Text type="secondary" className="bo-app-panel__url">
                  {a.app_ads_txt.url ? t('app_tracking.app.check_url', { url: a.app_ads_txt.url }) : t('app_tracking.app.check_no_url')}
                </Typography.Text>
                {facts.length > 0 ? <Typography.Text type="secondary">{facts.join(' · ')}</Typography.Text> : null}
              </Space>
            ),
          },
        ]}
      />
      <Space wrap className="bo-app-panel__actions">
        {canWrite ? (
          <Button icon={<SyncOutlined spin={checking} />} loading={checking} disabled={!a.app_ads_txt.url} onClick={() => void check()} data-testid={`${testId}-app-check`}>
            {checking ? t('app_tracking.app.check_running') : t('app_tracking.app.check')}
          </Button>
        ) : null}
        {canWrite ? (
          <Button icon={<EditOutlined />} onClick={() => setEditing(true)} data-testid={`${testId}-app-edit`}>
            {t('app_tracking.app.edit')}
          </Button>
        ) : null}
        {mismatch && a.platform ? (
          <Button icon={<CheckCircleOutlined />} onClick={() => onApply({ ...a, platform: a.platform! })} data-testid={`${testId}-app-apply`}>
            {t('app_tracking.app.apply')}
          </Button>
        ) : null}
      </Space>
      {mismatch ? <Alert type="warning" showIcon className="bo-app-panel__note" title={t('app_tracking.app.mismatch', { bundle: config.bundle })} data-testid={`${testId}-app-mismatch`} /> : null}
      {!a.platform ? <Alert type="warning" showIcon className="bo-app-panel__note" title={t('app_tracking.app.platform_unset')} /> : null}
      {editing ? (
        <AppProfileModal
          app={a}
          onClose={() => setEditing(false)}
          onSaved={(saved) => {
            storeSdkApp(queries, saved);
            setEditing(false);
            void notice.success(t('app_tracking.app.saved'));
          }}
          testId={testId}
        />
      ) : null}
    </section>
  );
}

interface ProfileForm {
  platform: AppPlatform | undefined;
  store_id: string;
  developer_domain: string;
}

function AppProfileModal({ app, onClose, onSaved, testId }: { app: SdkApp; onClose: () => void; onSaved: (app: SdkApp) => void; testId: string }) {
  const { t } = useTranslation();
  const [form] = Form.useForm<ProfileForm>();
  const [version, setVersion] = useState(app.version);
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [conflict, setConflict] = useState(false);
  const [saving, setSaving] = useState(false);
  const platform = Form.useWatch('platform', form);
  const initial: ProfileForm = { platform: app.platform ?? undefined, store_id: app.store_id, developer_domain: app.developer_domain ?? '' };

  const submit = async (values: ProfileForm) => {
    if (!values.platform) return setErrors({ platform: 'app_tracking.app.platform_required' });
    const body = { platform: values.platform, store_id: values.store_id.trim(), developer_domain: values.developer_domain.trim().toLowerCase(), version };
    // The API's rules, with its keys, before asking it.
    const found = appProfileErrors(body, app.bundle);
    setErrors(found);
    if (Object.keys(found).length > 0) return;
    setSaving(true);
    try {
      onSaved(await saveAppProfile(app.id, body));
    } catch (e) {
      if (e instanceof FetchError && e.httpStatus === 409) {
        const current = (e.details.body as { data?: { current?: SdkApp } } | undefined)?.data?.current;
        if (current) {
          setVersion(current.version);
          form.setFieldsValue({ platform: current.platform ?? undefined, store_id: current.store_id, developer_domain: current.developer_domain ?? '' });
        }
        setConflict(true);
      } else if (e instanceof FetchError && e.details.errors) setErrors(e.details.errors);
      else if (!isSessionError(e)) setErrors({ _: errorText(e) });
    } finally {
      setSaving(false);
    }
  };
  const status = (field: keyof ProfileForm) => (errors[field] ? { validateStatus: 'error' as const, help: t(errors[field]!) } : {});

  return (
    <Modal
      open
      title={t('app_tracking.app.edit_title', { bundle: app.bundle })}
      onCancel={onClose}
      okText={t('common.save')}
      cancelText={t('common.cancel')}
      confirmLoading={saving}
      onOk={() => form.submit()}
      okButtonProps={{ 'data-testid': `${testId}-app-edit-save` } as Record<string, string>}
      destroyOnHidden
      data-testid={`${testId}-app-edit-modal`}
    >
      {conflict ? <Alert type="warning" showIcon title={t('app_tracking.app.conflict')} className="bo-app-panel__note" /> : null}
      {errors._ ? <Alert type="error" showIcon title={errors._} className="bo-app-panel__note" /> : null}
      <Form form={form} layout="vertical" initialValues={initial} onFinish={(v) => void submit(v)}>
        <Form.Item name="platform" label={t('app_tracking.app.platform')} {...status('platform')}>
          <Radio.Group optionType="button" buttonStyle="solid" options={APP_PLATFORMS.map((p) => ({ value: p, label: t(`app_tracking.platform.${p}`) }))} />
        </Form.Item>
        <Form.Item name="store_id" label={t('app_tracking.app.store_id')} extra={platform === 'android' ? t('sdk.field.store_id_help_android') : t('sdk.field.store_id_help_ios')} {...status('store_id')}>
          <Input autoComplete="off" spellCheck={false} placeholder={platform === 'android' ? app.bundle : 'id1482750917'} />
        </Form.Item>
        <Form.Item name="developer_domain" label={t('app_tracking.app.developer_domain')} extra={t('app_tracking.app.developer_domain_help')} {...status('developer_domain')}>
          <Input autoComplete="off" spellCheck={false} inputMode="url" placeholder={app.publisher.seller_domain ?? 'nimbusnews.com'} data-testid={`${testId}-app-edit-domain`} />
        </Form.Item>
      </Form>
    </Modal>
  );
}
