/**
 * The drawer of a saved DataViewer's e-mail schedules: the list (what, when, to whom, next run,
 * last run) and, for the owner or an ADMIN, adding, editing, pausing, deleting and "send now".
 */
import { DeleteOutlined, EditOutlined, PlusOutlined, SendOutlined } from '@ant-design/icons';
import { SCHEDULE_FORMATS, SCHEDULE_FREQUENCIES, SCHEDULE_LIMITS, SCHEDULE_RANGE_PRESETS, recipientProblem } from '@backoffice/core/dataviewer-schedules';
import { parseDomains } from '@backoffice/core/mail';
import { Alert, Button, Card, Drawer, Empty, Flex, Form, InputNumber, Popconfirm, Radio, Segmented, Select, Skeleton, Switch, Tag, TimePicker, Tooltip, Typography, theme as antdTheme } from 'antd';
import dayjs from 'dayjs';
import { useMemo, useState, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { useNotice } from '../../components/use-notice.ts';
import { errorText } from '../../lib/api.ts';
import { FetchError } from '../../lib/fetch-client.ts';
import { useSession } from '../../lib/session-store.ts';
import { useViewport } from '../../lib/use-viewport.ts';
import { useScheduleActions, useScheduleDataviewer, useSchedules } from './schedule-api.ts';
import {
  STATUS_COLORS,
  describeSchedule,
  fieldErrors,
  formatInZone,
  newScheduleValues,
  scheduleToValues,
  tidyRecipients,
  timeZoneOptions,
  validateSchedule,
  valuesToBody,
  type Schedule,
  type ScheduleField,
  type ScheduleFormValues,
} from './schedule-form.ts';

const DOMAINS = parseDomains(import.meta.env.VITE_COMPANY_DOMAINS);
const BROWSER_ZONE = Intl.DateTimeFormat().resolvedOptions().timeZone;

export interface ScheduleDrawerProps {
  dataviewerId: number;
  canEdit: boolean;
  open: boolean;
  onClose: () => void;
}

export function ScheduleDrawer({ dataviewerId, canEdit, open, onClose }: ScheduleDrawerProps) {
  const { t } = useTranslation();
  const { isMobile } = useViewport();
  const notice = useNotice();
  const mail = useSession((s) => s.user?.mail ?? null);
  const list = useSchedules(dataviewerId);
  const dv = useScheduleDataviewer(dataviewerId, open);
  const actions = useScheduleActions(dataviewerId);
  const [editing, setEditing] = useState<Schedule | 'new' | null>(null);
  const [busy, setBusy] = useState<number | null>(null);

  const run = async (id: number, work: () => Promise<unknown>, success?: string) => {
    setBusy(id);
    try {
      await work();
      if (success) notice.success(success);
    } catch (err) {
      notice.error(errorText(err));
    } finally {
      setBusy(null);
    }
  };

  const sendNow = (s: Schedule) =>
    run(s.id, async () => {
      const after = await actions.sendNow(s.id);
      const status = after.last_run?.status;
      if (status === 'ok') notice.success(t('dvs.sent'));
      else if (status === 'empty') notice.warning(t('dvs.sent_empty'));
      // A failed run stores a message key (dvs.attachment_too_large…) or the error's text.
      else notice.error(after.last_run?.error ? t(after.last_run.error) : t('dvs.status.error'));
    });

  const close = () => {
    setEditing(null);
    onClose();
  };

  const schedules = list.data ?? [];
  const full = schedules.length >= SCHEDULE_LIMITS.maxSchedulesPerDataviewer;

  return (
    <Drawer
      open={open}
      onClose={close}
      title={editing ? t(editing === 'new' ? 'dvs.new_title' : 'dvs.edit_title') : t('dvs.title')}
      size={isMobile ? '100%' : 520}
      destroyOnHidden
      data-testid="dvs-drawer"
      extra={
        canEdit && !editing ? (
          <Button type="primary" icon={<PlusOutlined />} onClick={() => setEditing('new')} disabled={full || !list.data} data-testid="dvs-add">
            {t('dvs.add')}
          </Button>
        ) : null
      }
    >
      {editing ? (
        <ScheduleForm
          key={editing === 'new' ? 'new' : editing.id}
          initial={editing === 'new' ? newScheduleValues(dv.data?.definition?.timezone ?? BROWSER_ZONE, mail, DOMAINS) : scheduleToValues(editing)}
          onCancel={() => setEditing(null)}
          onSave={async (body) => {
            if (editing === 'new') await actions.create(body);
            else await actions.update(editing.id, body);
            notice.success(t(editing === 'new' ? 'dvs.created' : 'dvs.updated'));
            setEditing(null);
          }}
        />
      ) : (
        <Flex vertical gap={12}>
          <Typography.Paragraph type="secondary" style={{ margin: 0 }}>
            {t('dvs.intro')}
          </Typography.Paragraph>
          {!canEdit ? <Alert type="info" showIcon title={t('dvs.read_only')} data-testid="dvs-read-only" /> : null}
          {full && canEdit ? <Alert type="warning" showIcon title={t('dvs.too_many_schedules')} /> : null}
          {list.isPending ? (
            <Skeleton active paragraph={{ rows: 4 }} />
          ) : list.isError ? (
            <Alert type="error" showIcon title={t('dvs.load_error')} description={errorText(list.error)} />
          ) : schedules.length === 0 ? (
            <Empty description={t('dvs.empty')} data-testid="dvs-empty" />
          ) : (
            schedules.map((s) => (
              <ScheduleCard
                key={s.id}
                schedule={s}
                canEdit={canEdit}
                busy={busy === s.id}
                onToggle={(enabled) => run(s.id, () => actions.update(s.id, { enabled }), t('dvs.updated'))}
                onEdit={() => setEditing(s)}
                onDelete={() => run(s.id, () => actions.remove(s.id), t('dvs.deleted'))}
                onSend={() => sendNow(s)}
              />
            ))
          )}
        </Flex>
      )}
    </Drawer>
  );
}

function Meta({ label, children }: { label: string; children: ReactNode }) {
  return (
    <Flex gap={8} wrap align="baseline">
      <Typography.Text type="secondary" style={{ minWidth: 110 }}>
        {label}
      </Typography.Text>
      <div style={{ flex: '1 1 180px', minWidth: 0 }}>{children}</div>
    </Flex>
  );
}

interface CardProps {
  schedule: Schedule;
  canEdit: boolean;
  busy: boolean;
  onToggle: (enabled: boolean) => void;
  onEdit: () => void;
  onDelete: () => void;
  onSend: () => void;
}

function ScheduleCard({ schedule: s, canEdit, busy, onToggle, onEdit, onDelete, onSend }: CardProps) {
  const { t } = useTranslation();
  const next = formatInZone(s.next_run_at, s.timezone);
  const last = s.last_run;
  return (
    <Card
      size="small"
      data-testid="dvs-card"
      data-schedule-id={s.id}
      title={
        <Flex vertical style={{ whiteSpace: 'normal', padding: '4px 0' }}>
          <Typography.Text strong>{describeSchedule(s, t)}</Typography.Text>
          <Typography.Text type="secondary" style={{ fontSize: 12, fontWeight: 'normal' }}>
            {s.timezone}
          </Typography.Text>
        </Flex>
      }
      extra={
        canEdit ? (
          <Tooltip title={s.enabled ? t('dvs.enable') : t('dvs.paused')}>
            <Switch checked={s.enabled} loading={busy} onChange={onToggle} aria-label={t('dvs.field.enabled')} data-testid="dvs-toggle" />
          </Tooltip>
        ) : (
          <Tag color={s.enabled ? 'blue' : 'default'}>{s.enabled ? t('dvs.enable') : t('dvs.paused')}</Tag>
        )
      }
      actions={
        canEdit
          ? [
              <Button key="send" type="text" size="small" icon={<SendOutlined />} onClick={onSend} disabled={busy} data-testid="dvs-send">
                {t('dvs.send_now')}
              </Button>,
              <Button key="edit" type="text" size="small" icon={<EditOutlined />} onClick={onEdit} disabled={busy} data-testid="dvs-edit">
                {t('dvs.edit')}
              </Button>,
              <Popconfirm key="delete" title={t('dvs.delete_confirm')} onConfirm={onDelete} okText={t('dvs.delete')} cancelText={t('dvs.cancel')} okButtonProps={{ danger: true }}>
                <Button type="text" size="small" danger icon={<DeleteOutlined />} disabled={busy} data-testid="dvs-delete">
                  {t('dvs.delete')}
                </Button>
              </Popconfirm>,
            ]
          : undefined
      }
    >
      <Flex vertical gap={6}>
        <Meta label={t('dvs.field.range')}>
          {t(`dvs.range.${s.range_preset}`)} · {t(`dvs.format.${s.format}`)}
        </Meta>
        <Meta label={t('dvs.field.recipients')}>
          <Flex wrap gap={4}>
            {s.recipients.map((r) => (
              <Tag key={r} style={{ marginInlineEnd: 0, maxWidth: '100%', overflow: 'hidden', textOverflow: 'ellipsis' }}>
                {r}
              </Tag>
            ))}
          </Flex>
        </Meta>
        <Meta label={t('dvs.next_run')}>
          <span data-testid="dvs-next-run">{next ?? t('dvs.not_scheduled')}</span>
        </Meta>
        <Meta label={t('dvs.last_run')}>
          {last ? (
            <Flex wrap gap={6} align="center" data-testid="dvs-last-run">
              <Tag color={STATUS_COLORS[last.status]} style={{ marginInlineEnd: 0 }}>
                {t(`dvs.status.${last.status}`)}
              </Tag>
              <span>{formatInZone(last.at, s.timezone)}</span>
              {last.status === 'ok' && last.rows !== null ? <Typography.Text type="secondary">{t('dvs.rows', { rows: last.rows })}</Typography.Text> : null}
              {last.status === 'error' && last.error ? (
                <Typography.Text type="danger" style={{ width: '100%' }}>
                  {t(last.error)}
                </Typography.Text>
              ) : null}
            </Flex>
          ) : (
            <Typography.Text type="secondary">{t('dvs.never')}</Typography.Text>
          )}
        </Meta>
      </Flex>
    </Card>
  );
}

interface FormProps {
  initial: ScheduleFormValues;
  onCancel: () => void;
  onSave: (body: ReturnType<typeof valuesToBody>) => Promise<void>;
}

function ScheduleForm({ initial, onCancel, onSave }: FormProps) {
  const { t } = useTranslation();
  const { token } = antdTheme.useToken();
  const notice = useNotice();
  const [values, setValues] = useState<ScheduleFormValues>(initial);
  const [submitted, setSubmitted] = useState(false);
  const [serverErrors, setServerErrors] = useState<Partial<Record<ScheduleField, string>>>({});
  const [saving, setSaving] = useState(false);
  const zones = useMemo(() => timeZoneOptions(initial.timezone, BROWSER_ZONE).map((z) => ({ value: z, label: z })), [initial.timezone]);

  const localErrors = submitted ? validateSchedule(values, DOMAINS) : {};
  const errors = { ...serverErrors, ...localErrors };
  const set = <K extends ScheduleField>(field: K, value: ScheduleFormValues[K]) => {
    setValues((v) => ({ ...v, [field]: value }));
    setServerErrors((e) => ({ ...e, [field]: undefined }));
  };
  const item = (field: ScheduleField) => ({ validateStatus: errors[field] ? ('error' as const) : undefined, help: errors[field] ? t(errors[field]!) : undefined });

  const submit = async () => {
    setSubmitted(true);
    if (Object.keys(validateSchedule(values, DOMAINS)).length > 0) return;
    setSaving(true);
    try {
      await onSave(valuesToBody(values));
    } catch (err) {
      if (err instanceof FetchError && err.details.errors) setServerErrors(fieldErrors(err.details.errors));
      notice.error(errorText(err));
    } finally {
      setSaving(false);
    }
  };

  return (
    <Form layout="vertical" onFinish={() => void submit()} data-testid="dvs-form" requiredMark={false}>
      <Form.Item label={t('dvs.field.frequency')} {...item('frequency')}>
        <Segmented
          block
          value={values.frequency}
          onChange={(v) => set('frequency', v as ScheduleFormValues['frequency'])}
          options={SCHEDULE_FREQUENCIES.map((f) => ({ value: f, label: t(`dvs.frequency.${f}`) }))}
          data-testid="dvs-frequency"
        />
      </Form.Item>
      <Flex gap={12} wrap>
        {values.frequency === 'weekly' ? (
          <Form.Item label={t('dvs.field.weekday')} style={{ flex: '1 1 160px' }} {...item('weekday')}>
            <Select
              value={values.weekday ?? undefined}
              onChange={(v: number) => set('weekday', v)}
              options={[1, 2, 3, 4, 5, 6, 7].map((d) => ({ value: d, label: t(`dvs.weekday.${d}`) }))}
              data-testid="dvs-weekday"
            />
          </Form.Item>
        ) : null}
        {values.frequency === 'monthly' ? (
          <Form.Item label={t('dvs.field.month_day')} style={{ flex: '1 1 160px' }} extra={t('dvs.month_day_hint')} {...item('month_day')}>
            <InputNumber min={1} max={31} precision={0} value={values.month_day} onChange={(v) => set('month_day', v)} style={{ width: '100%' }} data-testid="dvs-month-day" />
          </Form.Item>
        ) : null}
        <Form.Item label={t('dvs.field.time')} style={{ flex: '1 1 120px' }} {...item('time')}>
          <TimePicker
            format="HH:mm"
            minuteStep={5}
            allowClear={false}
            needConfirm={false}
            showNow={false}
            value={dayjs(`2000-01-01T${values.time}`)}
            onChange={(d) => d && set('time', d.format('HH:mm'))}
            style={{ width: '100%' }}
            data-testid="dvs-time"
          />
        </Form.Item>
        <Form.Item label={t('dvs.field.timezone')} style={{ flex: '2 1 200px' }} {...item('timezone')}>
          <Select showSearch value={values.timezone} onChange={(v: string) => set('timezone', v)} options={zones} data-testid="dvs-timezone" />
        </Form.Item>
      </Flex>
      <Flex gap={12} wrap>
        <Form.Item label={t('dvs.field.range')} style={{ flex: '2 1 200px' }} extra={t('dvs.range_hint')} {...item('range_preset')}>
          <Select
            value={values.range_preset}
            onChange={(v: ScheduleFormValues['range_preset']) => set('range_preset', v)}
            options={SCHEDULE_RANGE_PRESETS.map((p) => ({ value: p, label: t(`dvs.range.${p}`) }))}
            data-testid="dvs-range"
          />
        </Form.Item>
        <Form.Item label={t('dvs.field.format')} style={{ flex: '1 1 140px' }} {...item('format')}>
          <Radio.Group
            optionType="button"
            value={values.format}
            onChange={(e) => set('format', e.target.value as ScheduleFormValues['format'])}
            options={SCHEDULE_FORMATS.map((f) => ({ value: f, label: t(`dvs.format.${f}`) }))}
          />
        </Form.Item>
      </Flex>
      <Form.Item label={t('dvs.field.recipients')} extra={t('dvs.recipients_hint', { max: SCHEDULE_LIMITS.maxRecipients })} {...item('recipients')}>
        <Select
          mode="tags"
          value={values.recipients}
          onChange={(v: string[]) => set('recipients', tidyRecipients(v))}
          tokenSeparators={[',', ';', ' ']}
          placeholder={t('dvs.recipients_placeholder')}
          suffixIcon={null}
          notFoundContent={null}
          open={false}
          maxCount={SCHEDULE_LIMITS.maxRecipients}
          aria-label={t('dvs.field.recipients')}
          tagRender={({ label, value, closable, onClose }) => {
            const bad = recipientProblem(String(value), DOMAINS) !== null;
            return (
              <Tag closable={closable} onClose={onClose} color={bad ? 'error' : undefined} style={{ marginInlineEnd: 4, marginBlock: 2 }} title={bad ? t(recipientProblem(String(value), DOMAINS)!) : undefined}>
                {label}
              </Tag>
            );
          }}
          data-testid="dvs-recipients"
        />
      </Form.Item>
      <Form.Item label={t('dvs.field.enabled')}>
        <Switch checked={values.enabled} onChange={(v) => set('enabled', v)} data-testid="dvs-enabled" />
      </Form.Item>
      <Flex gap={8} justify="flex-end" style={{ borderTop: `1px solid ${token.colorBorderSecondary}`, paddingTop: 12 }}>
        <Button onClick={onCancel}>{t('dvs.cancel')}</Button>
        <Button type="primary" htmlType="submit" loading={saving} data-testid="dvs-save">
          {t('dvs.save')}
        </Button>
      </Flex>
    </Form>
  );
}
