/**
 * The scheduler (`/utils/scheduler`, `/new`, `/{id}`) on the resource layer: jobs with their cron
 * expression (in words, with the next five runs in the job's time zone as one types), time zone,
 * task and parameters (fields built from the task type's declaration in core), owner, enabled,
 * last and next run and last status. A job's page adds "run now", pause and resume, and a Runs tab
 * (history with duration, status and log; a running run's log updates live; a failed run can be
 * retried). Scheduler viewers see all of it without any command; admins change
 * (docs/decisions/031-scheduler.md).
 */
import { CaretRightOutlined, FileTextOutlined, PauseCircleOutlined, PlayCircleOutlined, RedoOutlined } from '@ant-design/icons';
import { formatNumber } from '@backoffice/core/format';
import { SCHEDULER_ACL, SCHEDULER_AREA, scheduledJobs } from '@backoffice/core/resources/scheduled-jobs';
import {
  cronInWords,
  defaultParams,
  isTaskType,
  previewOf,
  RUN_STATUSES,
  TASK_PARAM_FIELDS,
  type ParamField,
  type RunStatus,
  type SchedulerRun,
  type TaskType,
} from '@backoffice/core/scheduler';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { Alert, Button, Drawer, Empty, Form, Input, InputNumber, Progress, Select, Space, Tag, Typography } from 'antd';
import { useEffect, useMemo, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { DataTable, type DataColumn, type TableView } from '../../components/data-table.tsx';
import { useApiAction } from '../../components/use-api-action.ts';
import { useLocale } from '../../components/use-locale.ts';
import { api, errorText } from '../../lib/api.ts';
import { usePermission } from '../../lib/permission.tsx';
import { ReferenceSelect } from '../../resources/reference-select.tsx';
import { listPrefetcher, resourceKey, type ResourceRow } from '../../resources/resource-api.ts';
import { formatDateTime, StatusTag, type StatusTone } from '../../resources/resource-cells.tsx';
import type { ResourceCells } from '../../resources/resource-list.tsx';
import { ResourcePage } from '../../resources/resource-page.tsx';
import './scheduler.css';

const TONES: Record<RunStatus, StatusTone> = { queued: 'info', running: 'info', succeeded: 'ok', failed: 'bad' };
const ACTIVE = new Set<string>(['queued', 'running']);

/** Whether the caller may change the scheduler: the API's permission and the protected area. */
function useCanChange(): boolean {
  const api = usePermission(SCHEDULER_ACL, 'write');
  const area = usePermission(SCHEDULER_AREA, 'write');
  return api && area;
}

/** Every IANA zone the browser knows (the API checks the same names). */
const TIME_ZONES: string[] = (() => {
  const zones = typeof Intl.supportedValuesOf === 'function' ? Intl.supportedValuesOf('timeZone') : [];
  return zones.includes('UTC') ? zones : ['UTC', ...zones];
})();

/** An instant in a zone, with its weekday and the zone's abbreviation (CET, CEST, EDT…). */
function zonedText(iso: string, timezone: string, locale: string): string {
  try {
    return new Intl.DateTimeFormat(locale, { timeZone: timezone, weekday: 'short', day: 'numeric', month: 'short', year: 'numeric', hour: '2-digit', minute: '2-digit', hourCycle: 'h23', timeZoneName: 'short' }).format(new Date(iso));
  } catch {
    return iso;
  }
}

function durationText(ms: number | null, locale: string): string {
  if (ms === null) return '—';
  if (ms < 1000) return `${formatNumber(ms, locale, 0)} ms`;
  if (ms < 60_000) return `${formatNumber(ms / 1000, locale, 1)} s`;
  const m = Math.floor(ms / 60_000);
  return `${m} min ${Math.round((ms % 60_000) / 1000)} s`;
}

/** The cron expression with, under it, what it means and its next five runs as one types. */
function CronInput({ id, value, onChange, disabled }: { id?: string; value?: string; onChange?: (v: string) => void; disabled?: boolean }) {
  const { t } = useTranslation();
  const locale = useLocale();
  const form = Form.useFormInstance();
  const timezone = (Form.useWatch('timezone', form) as string | undefined) || 'UTC';
  const text = value ?? '';
  // "Now" is read once a minute at most, so the list does not jump while one types.
  const [now] = useState(() => Date.now());
  const preview = useMemo(() => previewOf(text, timezone, now, locale), [text, timezone, now, locale]);
  return (
    <div className="bo-sched-cron">
      <Input
        id={id}
        value={text}
        onChange={(e) => onChange?.(e.target.value)}
        disabled={disabled}
        autoComplete="off"
        spellCheck={false}
        placeholder="0 7 * * 1-5"
        className="bo-sched-cron__input"
        aria-describedby={`${id}-preview`}
        data-testid="scheduler-cron"
      />
      <div id={`${id}-preview`} className="bo-sched-preview" aria-live="polite" data-testid="scheduler-preview">
        {text.trim() === '' ? (
          <Typography.Text type="secondary">{t('scheduler.preview.help')}</Typography.Text>
        ) : preview.valid ? (
          <>
            <Typography.Text strong data-testid="scheduler-words">
              {preview.words}
            </Typography.Text>
            <div className="bo-sched-preview__label">{t('scheduler.preview.next_runs', { timezone })}</div>
            {preview.next_runs.length > 0 ? (
              <ol className="bo-sched-preview__runs" data-testid="scheduler-next-runs">
                {preview.next_runs.map((r) => (
                  <li key={r}>{zonedText(r, timezone, locale)}</li>
                ))}
              </ol>
            ) : (
              <Typography.Text type="secondary">{t('scheduler.preview.none')}</Typography.Text>
            )}
          </>
        ) : (
          <Typography.Text type="danger" data-testid="scheduler-preview-error">
            {t(preview.error ?? 'scheduler.cron_invalid')}
          </Typography.Text>
        )}
      </div>
    </div>
  );
}

function TimeZoneInput({ id, value, onChange, disabled }: { id?: string; value?: string; onChange?: (v: string) => void; disabled?: boolean }) {
  return (
    <Select
      id={id}
      value={value || undefined}
      onChange={(v: string) => onChange?.(v)}
      disabled={disabled}
      showSearch
      options={TIME_ZONES.map((z) => ({ value: z, label: z }))}
      data-testid="scheduler-timezone"
    />
  );
}

type Params = Record<string, unknown>;

/** One parameter's control, from its declaration in core. */
function ParamControl({ task, field, id, value, onChange, disabled }: { task: TaskType; field: ParamField; id: string; value: unknown; onChange: (v: unknown) => void; disabled?: boolean }) {
  const { t } = useTranslation();
  const common = { id, disabled, 'data-testid': `scheduler-param-${field.key}` };
  switch (field.kind) {
    case 'ref':
      return <ReferenceSelect {...common} resource={field.ref!} value={value as never} onChange={onChange as never} />;
    case 'enum':
      return (
        <Select
          {...common}
          value={(value as string | null) ?? undefined}
          onChange={onChange}
          options={(field.options ?? []).map((o) => ({ value: o, label: t(`scheduler.param.${task}.${field.key}.${o}`) }))}
        />
      );
    case 'emails':
    case 'ids':
      return (
        <Select
          {...common}
          mode="tags"
          open={false}
          suffixIcon={null}
          tokenSeparators={[',', ' ', ';']}
          placeholder={field.kind === 'emails' ? t('scheduler.param.recipients_placeholder') : undefined}
          value={Array.isArray(value) ? (value as unknown[]).map(String) : []}
          onChange={(v: string[]) => onChange(field.kind === 'ids' ? v.map((x) => (/^\d+$/.test(x) ? Number(x) : x)) : v)}
        />
      );
    case 'number':
      return <InputNumber {...common} value={value as number | null} onChange={(v) => onChange(v ?? null)} min={field.min} max={field.max} precision={0} style={{ width: '100%' }} />;
    case 'date':
      return <Input {...common} value={(value as string | null) ?? ''} onChange={(e) => onChange(e.target.value.trim() || null)} placeholder="YYYY-MM-DD" autoComplete="off" />;
  }
}

/** The task's parameters as fields of their own; a new task type starts from its defaults. */
function ParamsInput({ id, value, onChange, disabled }: { id?: string; value?: Params; onChange?: (v: Params) => void; disabled?: boolean }) {
  const { t } = useTranslation();
  const form = Form.useFormInstance();
  const task = Form.useWatch('task_type', form) as unknown;
  const previous = useRef<unknown>(undefined);
  useEffect(() => {
    if (previous.current === task) return;
    const first = previous.current === undefined;
    previous.current = task;
    if (!isTaskType(task)) return;
    // A saved job's parameters stay as they are; a new task type starts from its defaults.
    const keys = TASK_PARAM_FIELDS[task].map((f) => f.key);
    const fits = value !== null && typeof value === 'object' && !Array.isArray(value) && Object.keys(value).every((k) => keys.includes(k));
    if (!first || !fits) onChange?.(defaultParams(task));
  }, [task, value, onChange]);
  if (!isTaskType(task)) return <Typography.Text type="secondary">{t('scheduler.task_type_required')}</Typography.Text>;
  const fields = TASK_PARAM_FIELDS[task];
  if (fields.length === 0) return <Typography.Text type="secondary">{t('scheduler.params.none')}</Typography.Text>;
  const params = value ?? {};
  return (
    <div id={id} role="group" className="bo-sched-params" data-testid="scheduler-params">
      {fields.map((f) => {
        const fieldId = `${id ?? 'params'}-${f.key}`;
        return (
          <div key={f.key} className="bo-sched-params__field">
            <label htmlFor={fieldId} className="bo-sched-params__label">
              {t(`scheduler.param.${task}.${f.key}`)}
            </label>
            <ParamControl task={task} field={f} id={fieldId} value={params[f.key] ?? null} onChange={(v) => onChange?.({ ...params, [f.key]: v })} disabled={disabled} />
          </div>
        );
      })}
    </div>
  );
}

/** One run: status, progress, times and its log, refreshed every second while it works. */
function RunDrawer({ runId, onClose }: { runId: number | null; onClose: () => void }) {
  const { t } = useTranslation();
  const locale = useLocale();
  const run = useQuery({
    queryKey: ['api', 'scheduler', 'run', runId],
    queryFn: ({ signal }) => api.request<SchedulerRun>('scheduler-api/runs/:id', { params: { id: runId! }, signal }),
    enabled: runId !== null,
    refetchInterval: (q) => (q.state.data && ACTIVE.has(q.state.data.status) ? 1000 : false),
  });
  const logRef = useRef<HTMLPreElement>(null);
  useEffect(() => {
    // Follow the end of a growing log.
    if (logRef.current) logRef.current.scrollTop = logRef.current.scrollHeight;
  }, [run.data?.log]);
  const r = run.data;
  return (
    <Drawer open={runId !== null} onClose={onClose} title={runId ? t('scheduler.run.title', { id: runId }) : ''} size="large" className="bo-sched-run" data-testid="scheduler-run">
      {run.isError ? <Alert type="error" showIcon title={errorText(run.error)} /> : null}
      {r ? (
        <Space direction="vertical" size="middle" style={{ width: '100%' }}>
          <Space wrap>
            <StatusTag tone={TONES[r.status]} testId="scheduler-run-status">
              {t(`scheduler.field.last_status.${r.status}`)}
            </StatusTag>
            <Tag>{t(`scheduler.run.trigger.${r.trigger}`)}</Tag>
            {ACTIVE.has(r.status) ? <Typography.Text type="secondary">{t('scheduler.run.live')}</Typography.Text> : null}
          </Space>
          <Progress percent={r.progress} status={r.status === 'failed' ? 'exception' : ACTIVE.has(r.status) ? 'active' : 'success'} aria-label={t('scheduler.run.progress')} />
          <dl className="bo-sched-run__facts">
            <dt>{t('scheduler.run.queued_at')}</dt>
            <dd>{formatDateTime(r.queued_at, locale)}</dd>
            <dt>{t('scheduler.run.started_at')}</dt>
            <dd>{r.started_at ? formatDateTime(r.started_at, locale) : '—'}</dd>
            <dt>{t('scheduler.run.finished_at')}</dt>
            <dd>{r.finished_at ? formatDateTime(r.finished_at, locale) : '—'}</dd>
            <dt>{t('scheduler.run.duration')}</dt>
            <dd data-testid="scheduler-run-duration">{durationText(r.duration_ms, locale)}</dd>
            <dt>{t('scheduler.run.attempts')}</dt>
            <dd>{r.attempts}</dd>
            {r.error ? (
              <>
                <dt>{t('scheduler.run.error')}</dt>
                <dd>
                  <Typography.Text type="danger">{t(r.error)}</Typography.Text>
                </dd>
              </>
            ) : null}
          </dl>
          <div>
            <Typography.Title level={2} className="bo-sched-run__log-title">
              {t('scheduler.run.log')}
            </Typography.Title>
            <pre ref={logRef} className="bo-sched-run__log" tabIndex={0} aria-label={t('scheduler.run.show_log', { id: r.id })} data-testid="scheduler-run-log">
              {r.log}
            </pre>
          </div>
        </Space>
      ) : null}
    </Drawer>
  );
}

interface RunsPage {
  items: SchedulerRun[];
  total: number;
}

/** The job's runs, newest first; refreshed every two seconds while one is queued or running. */
function RunsTab({ job, canChange, open }: { job: ResourceRow; canChange: boolean; open: (id: number) => void }) {
  const { t } = useTranslation();
  const locale = useLocale();
  const client = useQueryClient();
  const action = useApiAction<string>();
  const [view, setView] = useState<TableView>({ sort: '-id', page: 1, pageSize: 20 });
  const runs = useQuery({
    queryKey: ['api', 'scheduler', 'runs', job.id, view.page, view.pageSize],
    queryFn: ({ signal }) => api.request<RunsPage>('scheduler-api/jobs/:id/runs', { params: { id: job.id }, query: { page: view.page, page_size: view.pageSize }, signal }),
    refetchInterval: (q) => (q.state.data?.items.some((r) => ACTIVE.has(r.status)) ? 2000 : false),
  });
  const retry = (run: SchedulerRun) =>
    void action.run(`retry:${run.id}`, async () => {
      const { run: created } = await api.request<{ run: SchedulerRun }>('scheduler-api/runs/:id/retry', { method: 'POST', params: { id: run.id }, body: {} });
      await client.invalidateQueries({ queryKey: ['api', 'scheduler'] });
      await client.invalidateQueries({ queryKey: resourceKey(scheduledJobs) });
      open(created.id);
      return 'scheduler.retried';
    });
  const columns: DataColumn<SchedulerRun>[] = [
    {
      key: 'id',
      title: t('scheduler.run.id'),
      render: (r) => (
        <Button type="link" size="small" icon={<FileTextOutlined />} onClick={() => open(r.id)} aria-label={t('scheduler.run.show_log', { id: r.id })} data-testid={`scheduler-run-open-${r.id}`}>
          #{r.id}
        </Button>
      ),
    },
    { key: 'status', title: t('scheduler.run.status'), render: (r) => <StatusTag tone={TONES[r.status]}>{t(`scheduler.field.last_status.${r.status}`)}</StatusTag> },
    { key: 'trigger', title: t('scheduler.run.trigger'), render: (r) => t(`scheduler.run.trigger.${r.trigger}`) },
    { key: 'queued_at', title: t('scheduler.run.queued_at'), render: (r) => formatDateTime(r.queued_at, locale) },
    { key: 'duration', title: t('scheduler.run.duration'), align: 'right', render: (r) => durationText(r.duration_ms, locale) },
    { key: 'requested_by', title: t('scheduler.run.requested_by'), render: (r) => r.requested_by.name ?? '—' },
    {
      key: 'actions',
      title: '',
      render: (r) =>
        canChange && r.status === 'failed' ? (
          <Button size="small" icon={<RedoOutlined />} loading={action.busy === `retry:${r.id}`} onClick={() => retry(r)} data-testid={`scheduler-run-retry-${r.id}`}>
            {t('scheduler.retry')}
          </Button>
        ) : null,
    },
  ];
  if (runs.isError) return <Alert type="error" showIcon title={errorText(runs.error)} />;
  return (
    <DataTable<SchedulerRun, number>
      rows={runs.data?.items ?? []}
      total={runs.data?.total ?? 0}
      loading={runs.isFetching && !runs.data}
      rowKey={(r) => r.id}
      columns={columns}
      view={view}
      onView={(patch) => setView((v) => ({ ...v, ...patch }))}
      defaultSort="-id"
      pageSizes={[20, 50, 100]}
      sortOptions={[{ value: '-id', label: `${t('scheduler.run.id')} ↓` }]}
      sortLabel={t('scheduler.runs.sort')}
      regionLabel={t('scheduler.runs.region')}
      empty={<Empty description={t('scheduler.runs.empty')} />}
      testId="scheduler-runs"
      card={{
        title: (r, className) => (
          <Button type="link" className={className} onClick={() => open(r.id)} data-testid={`scheduler-run-open-${r.id}`}>
            #{r.id} · {formatDateTime(r.queued_at, locale)}
          </Button>
        ),
        tag: (r) => <StatusTag tone={TONES[r.status]}>{t(`scheduler.field.last_status.${r.status}`)}</StatusTag>,
        fields: (r) => [
          { label: t('scheduler.run.trigger'), value: t(`scheduler.run.trigger.${r.trigger}`) },
          { label: t('scheduler.run.duration'), value: durationText(r.duration_ms, locale) },
          ...(canChange && r.status === 'failed'
            ? [
                {
                  key: 'retry',
                  label: '',
                  value: (
                    <Button size="small" icon={<RedoOutlined />} onClick={() => retry(r)}>
                      {t('scheduler.retry')}
                    </Button>
                  ),
                },
              ]
            : []),
        ],
      }}
    />
  );
}

/** Run now, pause, resume (scheduler admins only). */
function JobCommands({ row, onRun }: { row: ResourceRow; onRun: (runId: number) => void }) {
  const { t } = useTranslation();
  const client = useQueryClient();
  const action = useApiAction<'run' | 'pause' | 'resume'>();
  const refresh = async () => {
    await client.invalidateQueries({ queryKey: resourceKey(scheduledJobs) });
    await client.invalidateQueries({ queryKey: ['api', 'scheduler'] });
  };
  const runNow = () =>
    void action.run('run', async () => {
      const { run } = await api.request<{ run: SchedulerRun }>('scheduler-api/jobs/:id/actions/run', { method: 'POST', params: { id: row.id }, body: {} });
      await refresh();
      onRun(run.id);
      return 'scheduler.run_queued';
    });
  const toggle = (command: 'pause' | 'resume') =>
    void action.run(command, async () => {
      await api.request(`scheduler-api/jobs/:id/actions/${command}`, { method: 'POST', params: { id: row.id }, body: { version: row.version } });
      await refresh();
      return command === 'pause' ? 'scheduler.paused_done' : 'scheduler.resumed_done';
    });
  return (
    <>
      <Button type="primary" icon={<CaretRightOutlined />} loading={action.busy === 'run'} disabled={action.busy !== null} onClick={runNow} data-testid="scheduler-run-now">
        {t('scheduler.run_now')}
      </Button>
      {row.enabled ? (
        <Button icon={<PauseCircleOutlined />} loading={action.busy === 'pause'} disabled={action.busy !== null} onClick={() => toggle('pause')} data-testid="scheduler-pause">
          {t('scheduler.pause')}
        </Button>
      ) : (
        <Button icon={<PlayCircleOutlined />} loading={action.busy === 'resume'} disabled={action.busy !== null} onClick={() => toggle('resume')} data-testid="scheduler-resume">
          {t('scheduler.resume')}
        </Button>
      )}
    </>
  );
}

/** The list's first page, asked for as the navigation starts (app/routes.tsx). */
export const prefetchList = listPrefetcher(scheduledJobs);

export default function SchedulerPage() {
  const { t } = useTranslation();
  const locale = useLocale();
  const canChange = useCanChange();
  const [openRun, setOpenRun] = useState<number | null>(null);
  const fields = scheduledJobs.fields;
  const cells: ResourceCells = {
    cron: (value) => (
      <span className="bo-sched-cron-cell">
        <code>{String(value ?? '')}</code>
        <Typography.Text type="secondary" className="bo-sched-cron-cell__words">
          {typeof value === 'string' ? cronInWords(value, locale) : ''}
        </Typography.Text>
      </span>
    ),
    enabled: (value, row) => (
      <StatusTag tone={value ? 'ok' : 'off'} testId={`scheduler-enabled-${row.id}`}>
        {t(value ? 'scheduler.enabled' : 'scheduler.paused')}
      </StatusTag>
    ),
    last_status: (value, row) =>
      typeof value === 'string' && (RUN_STATUSES as readonly string[]).includes(value) ? (
        <StatusTag tone={TONES[value as RunStatus]} testId={`scheduler-last-status-${row.id}`}>
          {t(`${fields.last_status!.label}.${value}`)}
        </StatusTag>
      ) : (
        '—'
      ),
    next_run_at: (value, row) => (row.enabled && value ? formatDateTime(value, locale) : <Typography.Text type="secondary">{row.enabled ? '—' : t('scheduler.paused')}</Typography.Text>),
  };
  return (
    <>
      <ResourcePage
        def={scheduledJobs}
        basePath="/utils/scheduler"
        titleKey="scheduler.title"
        newTitleKey="scheduler.new_title"
        cells={cells}
        inputs={{ cron: <CronInput />, timezone: <TimeZoneInput />, params: <ParamsInput /> }}
        rowActions={canChange ? (row) => <JobCommands row={row} onRun={setOpenRun} /> : undefined}
        tabs={(row) => [{ key: 'runs', label: t('scheduler.tab.runs'), children: <RunsTab job={row} canChange={canChange} open={setOpenRun} /> }]}
      />
      <RunDrawer runId={openRun} onClose={() => setOpenRun(null)} />
    </>
  );
}
