/**
 * Logs parametrization (`/utils/ssp/logs-data/parametrization`, a hidden menu entry; decision 035):
 * the one sampling setting — on/off, sample rate (the spec's slider: 0-100, marks at 20, 40, 60,
 * 80), duration (15 min to 24 h, or until a date-time), partner scope (all or chosen partners) —
 * checked here with core's rules and again by the API (same keys, next to each field; what was typed
 * stays), saved with its version (409: who changed it, and the form keeps the edit), asking before
 * leaving with unsaved changes; the current run's status (polled while it runs) and the history of
 * changes. Read-only without write on `/v1/ssp-logs/parametrization`.
 */
import { CodeOutlined } from '@ant-design/icons';
import {
  DURATION_MAX_MINUTES,
  DURATION_MIN_MINUTES,
  DURATION_PRESETS,
  SAMPLE_RATE_MAX,
  SAMPLE_RATE_MIN,
  parametrizationClockErrors,
  parametrizationInputSchema,
  type SamplingSetting,
  type SspLogLookups,
} from '@backoffice/core/ssp-logs';
import type { HistoryEntry } from '@backoffice/core/resources/define';
import { issuesToErrors } from '@backoffice/core/validation-errors';
import { useQueryClient } from '@tanstack/react-query';
import { Alert, Button, Card, DatePicker, Empty, Form, InputNumber, Radio, Select, Skeleton, Space, Switch, Timeline, Typography } from 'antd';
import dayjs, { type Dayjs } from 'dayjs';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { SliderInput } from '../../components/slider-input.tsx';
import { useLocale } from '../../components/use-locale.ts';
import { useNotice } from '../../components/use-notice.ts';
import { api, errorText, isSessionError } from '../../lib/api.ts';
import { FetchError } from '../../lib/fetch-client.ts';
import { i18n } from '../../lib/i18n.ts';
import { usePermission } from '../../lib/permission.tsx';
import { useApiQuery } from '../../lib/query.ts';
import { useUnsavedGuard } from '../../resources/resource-form.tsx';
import { formatDateTime } from '../../resources/resource-cells.tsx';
import { Page } from '../../shell/page.tsx';
import { LOGS_PATH, PARAM_PATH } from './ssp-logs-api.ts';
import './ssp-logs.css';

interface Values {
  active: boolean;
  sample_rate_pct: number | null;
  duration_mode: 'minutes' | 'until';
  duration_minutes: number | null;
  until: Dayjs | null;
  partner_scope: 'all' | 'partners';
  partner_ids: number[];
}
const FIELDS = ['active', 'sample_rate_pct', 'duration_mode', 'duration_minutes', 'until', 'partner_scope', 'partner_ids'] as const;

const valuesOf = (s: SamplingSetting): Values => ({
  active: s.active,
  sample_rate_pct: s.sample_rate_pct,
  duration_mode: s.duration_mode,
  duration_minutes: s.duration_minutes ?? 60,
  until: s.until ? dayjs(s.until) : null,
  partner_scope: s.partner_scope,
  partner_ids: s.partner_ids,
});

function presetLabel(minutes: number): string {
  return minutes < 60 ? `${minutes} min` : `${minutes / 60} h`;
}

export default function ParametrizationPage() {
  const { t } = useTranslation();
  const locale = useLocale();
  const notice = useNotice();
  const queries = useQueryClient();
  const canWrite = usePermission('/v1/ssp-logs/parametrization', 'write');
  const canTool = usePermission('/v1/ssp-logs', 'read');
  const setting = useApiQuery<SamplingSetting>(PARAM_PATH, {}, { refetchInterval: (q) => (q.state.data?.sampling ? 15_000 : false) });
  const history = useApiQuery<HistoryEntry[]>(`${PARAM_PATH}/history`);
  const lookups = useApiQuery<SspLogLookups>(`${LOGS_PATH}/lookups`, {}, { staleTime: 300_000, enabled: canTool });
  const [form] = Form.useForm<Values>();
  const [dirty, setDirty] = useState(false);
  const [saving, setSaving] = useState(false);
  const [version, setVersion] = useState<number | null>(null);
  const [conflict, setConflict] = useState<SamplingSetting | null>(null);
  const mode = Form.useWatch('duration_mode', form);
  const scope = Form.useWatch('partner_scope', form);
  const s = setting.data;
  useUnsavedGuard(dirty);

  // Fill the form from the server until the person starts editing.
  useEffect(() => {
    if (!s || dirty) return;
    form.setFieldsValue(valuesOf(s));
    setVersion(s.version);
  }, [s, dirty, form]);

  const partnerOptions = [
    ...(lookups.data?.partners ?? []).filter((p) => p.status === 'live' || p.status === 'testing').map((p) => ({ value: p.id, label: p.name })),
    ...(s?.partners ?? []).filter((p) => !(lookups.data?.partners ?? []).some((l) => l.id === p.id)).map((p) => ({ value: p.id, label: p.name })),
  ];

  const showErrors = (errors: Record<string, string>) =>
    form.setFields(Object.entries(errors).map(([name, key]) => ({ name: (name.split('.')[0] ?? name) as keyof Values, errors: [i18n.t(key)] })));

  const submit = async () => {
    const v = form.getFieldsValue(true) as Values;
    const body = {
      active: v.active,
      sample_rate_pct: v.sample_rate_pct,
      duration_mode: v.duration_mode,
      duration_minutes: v.duration_mode === 'minutes' ? v.duration_minutes : null,
      until: v.duration_mode === 'until' && v.until ? v.until.second(0).millisecond(0).toISOString() : null,
      partner_scope: v.partner_scope,
      partner_ids: v.partner_scope === 'partners' ? v.partner_ids : [],
    };
    form.setFields(FIELDS.map((name) => ({ name, errors: [] })));
    const parsed = parametrizationInputSchema.safeParse(body);
    if (!parsed.success) return showErrors(issuesToErrors(parsed.error.issues));
    if (body.active) {
      const clock = parametrizationClockErrors(parsed.data, Date.now());
      if (Object.keys(clock).length > 0) return showErrors(clock);
    }
    setSaving(true);
    try {
      const saved = await api.request<SamplingSetting>(PARAM_PATH, { method: 'PUT', body: { ...parsed.data, version } });
      setConflict(null);
      setDirty(false);
      setVersion(saved.version);
      form.setFieldsValue(valuesOf(saved));
      queries.setQueryData(['api', PARAM_PATH, null, null], saved);
      void queries.invalidateQueries({ predicate: (q) => q.queryKey[0] === 'api' && typeof q.queryKey[1] === 'string' && q.queryKey[1].startsWith('ssp-logs') });
      void notice.success(t('ssp_logs.param.saved'));
    } catch (error) {
      if (error instanceof FetchError && error.details.httpStatus === 409) {
        const current = (error.details.body as { data?: { current?: SamplingSetting } } | undefined)?.data?.current ?? null;
        setConflict(current);
        if (current) setVersion(current.version);
      } else if (error instanceof FetchError && error.details.errors && Object.keys(error.details.errors).length > 0) showErrors(error.details.errors);
      else if (!isSessionError(error)) void notice.error(errorText(error));
    } finally {
      setSaving(false);
    }
  };

  const reset = () => {
    if (s) form.setFieldsValue(valuesOf(s));
    if (s) setVersion(s.version);
    form.setFields(FIELDS.map((name) => ({ name, errors: [] })));
    setConflict(null);
    setDirty(false);
  };

  const runText = !s
    ? ''
    : s.sampling
      ? t('ssp_logs.param.status_on', { start: formatDateTime(s.started_at, locale), end: formatDateTime(s.ends_at, locale), rows: s.sampled_rows.toLocaleString(locale) })
      : s.started_at
        ? t('ssp_logs.param.status_off', { start: formatDateTime(s.started_at, locale), end: formatDateTime(s.ends_at, locale), rows: s.sampled_rows.toLocaleString(locale) })
        : t('ssp_logs.param.status_never');

  return (
    <Page title={t('ssp_logs.param.title')} testId="ssp-param">
      <div className="bo-res-head">
        <Typography.Text type="secondary">{t('ssp_logs.param.subtitle')}</Typography.Text>
        {canTool ? (
          <Link to={`/${locale}/process/ssp-logs-tool`} data-testid="ssp-param-to-tool">
            <CodeOutlined /> {t('ssp_logs.param.to_tool')}
          </Link>
        ) : null}
      </div>
      {setting.error ? <Alert type="error" showIcon title={t('ssp_logs.param.load_failed')} description={errorText(setting.error)} action={<Button size="small" onClick={() => void setting.refetch()}>{t('common.retry')}</Button>} /> : null}
      {s ? (
        <Alert className="bo-sspl-status" type={s.sampling ? 'success' : 'info'} showIcon title={t('ssp_logs.param.status')} description={runText} data-testid="ssp-param-status" data-sampling={s.sampling ? 'on' : 'off'} />
      ) : null}
      {!canWrite && s ? <Alert className="bo-sspl-status" type="warning" showIcon title={t('ssp_logs.param.read_only')} data-testid="ssp-param-read-only" /> : null}
      <div className="bo-sspl-param">
        <Card className="bo-sspl-param__form">
          {!s ? (
            <Skeleton active />
          ) : (
            <Form<Values> form={form} layout="vertical" disabled={!canWrite || saving} onValuesChange={() => setDirty(true)} onFinish={() => void submit()} data-testid="ssp-param-form">
              {conflict ? (
                <Alert
                  type="warning"
                  showIcon
                  className="bo-sspl-status"
                  data-testid="ssp-param-conflict"
                  title={t('resource.conflict_title')}
                  description={t('resource.conflict', { name: conflict.updated_by.name ?? t('ssp_logs.param.by_system'), at: formatDateTime(conflict.updated_at, locale) })}
                  action={
                    <Button size="small" onClick={reset} disabled={false}>
                      {t('ssp_logs.param.reset')}
                    </Button>
                  }
                />
              ) : null}
              <Form.Item name="active" label={t('ssp_logs.param.active')} valuePropName="checked" extra={t('ssp_logs.param.active_help')}>
                <Switch id="active" data-testid="ssp-param-active" />
              </Form.Item>
              <Form.Item label={t('ssp_logs.param.rate')} extra={t('ssp_logs.param.rate_help')} required>
                <div className="bo-sspl-rate">
                  <Form.Item name="sample_rate_pct" noStyle>
                    <SliderInput className="bo-sspl-rate__slider" aria-label={t('ssp_logs.param.rate')} />
                  </Form.Item>
                  <Form.Item name="sample_rate_pct" noStyle>
                    <InputNumber id="sample_rate_pct" min={SAMPLE_RATE_MIN} max={SAMPLE_RATE_MAX} precision={0} suffix="%" aria-label={t('ssp_logs.param.rate')} data-testid="ssp-param-rate" />
                  </Form.Item>
                </div>
              </Form.Item>
              <Form.Item name="duration_mode" label={t('ssp_logs.param.duration')}>
                <Radio.Group
                  optionType="button"
                  options={[
                    { value: 'minutes', label: t('ssp_logs.param.duration_mode.minutes') },
                    { value: 'until', label: t('ssp_logs.param.duration_mode.until') },
                  ]}
                  data-testid="ssp-param-duration-mode"
                />
              </Form.Item>
              {mode === 'until' ? (
                <Form.Item name="until" label={t('ssp_logs.param.until')}>
                  <DatePicker id="until" showTime={{ format: 'HH:mm' }} format="YYYY-MM-DD HH:mm" data-testid="ssp-param-until" />
                </Form.Item>
              ) : (
                <Form.Item label={t('ssp_logs.param.minutes')} required>
                  <Space wrap>
                    <Form.Item name="duration_minutes" noStyle>
                      <InputNumber id="duration_minutes" min={1} max={DURATION_MAX_MINUTES * 10} precision={0} aria-label={t('ssp_logs.param.minutes')} data-testid="ssp-param-minutes" />
                    </Form.Item>
                    {DURATION_PRESETS.map((m) => (
                      <Button
                        key={m}
                        size="small"
                        onClick={() => {
                          form.setFieldValue('duration_minutes', m);
                          form.setFields([{ name: 'duration_minutes', errors: [] }]);
                          setDirty(true);
                        }}
                        data-testid={`ssp-param-preset-${m}`}
                      >
                        {presetLabel(m)}
                      </Button>
                    ))}
                  </Space>
                </Form.Item>
              )}
              <Typography.Text type="secondary" className="bo-sspl-hint">
                {presetLabel(DURATION_MIN_MINUTES)} – {presetLabel(DURATION_MAX_MINUTES)}
              </Typography.Text>
              <Form.Item name="partner_scope" label={t('ssp_logs.param.scope')}>
                <Radio.Group
                  optionType="button"
                  options={[
                    { value: 'all', label: t('ssp_logs.param.scope.all') },
                    { value: 'partners', label: t('ssp_logs.param.scope.partners') },
                  ]}
                  data-testid="ssp-param-scope"
                />
              </Form.Item>
              {scope === 'partners' ? (
                <Form.Item name="partner_ids" label={t('ssp_logs.param.partners')}>
                  <Select
                    id="partner_ids"
                    mode="multiple"
                    allowClear
                    showSearch={{ optionFilterProp: 'label' }}
                    options={partnerOptions}
                    maxTagCount="responsive"
                    aria-label={t('ssp_logs.param.partners')}
                    data-testid="ssp-param-partners"
                  />
                </Form.Item>
              ) : null}
              {canWrite ? (
                <Space wrap>
                  <Button type="primary" htmlType="submit" loading={saving} data-testid="ssp-param-save">
                    {t('ssp_logs.param.save')}
                  </Button>
                  <Button onClick={reset} disabled={!dirty || saving} data-testid="ssp-param-reset">
                    {t('ssp_logs.param.reset')}
                  </Button>
                </Space>
              ) : null}
            </Form>
          )}
        </Card>
        <Card className="bo-sspl-param__history" title={<Typography.Title level={2} className="bo-sspl-json__title">{t('ssp_logs.param.history')}</Typography.Title>} data-testid="ssp-param-history">
          {history.error ? <Alert type="error" showIcon title={errorText(history.error)} /> : null}
          {history.data && history.data.length === 0 ? <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description={t('ssp_logs.param.history_empty')} /> : null}
          {history.data && history.data.length > 0 ? (
            <Timeline
              items={history.data.map((h) => ({
                key: h.id,
                children: (
                  <div className="bo-sspl-history" data-testid={`ssp-param-history-${h.id}`}>
                    <Typography.Text strong>{t(`ssp_logs.action.${h.action}`)}</Typography.Text>
                    <div>
                      <Typography.Text type="secondary">
                        {formatDateTime(h.at, locale)} · {h.actor.name ?? t('ssp_logs.param.by_system')}
                      </Typography.Text>
                    </div>
                    <ul className="bo-sspl-changes">
                      {Object.entries(h.changes)
                        .filter(([k]) => k !== 'version')
                        .map(([k, [before, after]]) => (
                          <li key={k}>
                            <code>{k}</code>: {JSON.stringify(before)} → {JSON.stringify(after)}
                          </li>
                        ))}
                    </ul>
                  </div>
                ),
              }))}
            />
          ) : null}
        </Card>
      </div>
    </Page>
  );
}
