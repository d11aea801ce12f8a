/**
 * The QPS graph's form and result. The form edits a draft; "Show graph" checks the spec's rules
 * (the API's schema) and, when they pass, writes the draft to the URL. What the URL holds is what
 * is drawn, so a copied link, a reload or the browser's back button show the same graph.
 */
import type { SelectOption } from '@backoffice/core/inputs';
import { QPS_LIMITS, QPS_METRICS, type QpsGraph, type QpsMetric } from '@backoffice/core/reports';
import { Alert, Button, Checkbox, Form, Select, Space, theme as antdTheme } from 'antd';
import { useEffect, useMemo, useState, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { useLocation, useNavigate, useSearchParams } from 'react-router';
import { AutocompleteInput, type AutocompleteFetcher } from '../../components/autocomplete-input.tsx';
import { DateTimeInput } from '../../components/date-time-input.tsx';
import { api, errorText } from '../../lib/api.ts';
import { useApiQuery } from '../../lib/query.ts';
import type { QpsGraphAnswer } from './qps-chart.ts';
import { QpsResult } from './qps-result.tsx';
import {
  hasErrors,
  intervalLabel,
  isValidZone,
  lastHoursRange,
  qpsRequest,
  qpsStateFromSearch,
  qpsStateToSearch,
  validateQps,
  wallString,
  wallToEpoch,
  type QpsErrors,
  type QpsState,
} from './qps-state.ts';

const QUICK_RANGES = [6, 24, 72, 168] as const;

const fetchEntities: AutocompleteFetcher = (url, query, signal) =>
  api.request<SelectOption[]>(url, { query, signal });

/** Every IANA zone the browser knows, UTC first. */
function timeZones(): string[] {
  let zones: string[] = [];
  try {
    zones = Intl.supportedValuesOf('timeZone');
  } catch {
    zones = ['Europe/Madrid'];
  }
  return ['UTC', ...zones.filter((z) => z !== 'UTC')];
}

function FieldError({ id, messageKey }: { id: string; messageKey: string | undefined }) {
  const { t } = useTranslation();
  if (!messageKey) return null;
  return (
    <div id={id} role="alert" className="bo-qps__error" data-testid={id}>
      {t(messageKey)}
    </div>
  );
}

function Field({
  label,
  htmlFor,
  error,
  errorId,
  children,
  wide,
}: {
  label: string;
  htmlFor?: string;
  error?: string;
  errorId: string;
  children: ReactNode;
  wide?: boolean;
}) {
  return (
    <Form.Item
      className={wide ? 'bo-qps__field bo-qps__field--wide' : 'bo-qps__field'}
      label={label}
      htmlFor={htmlFor}
      validateStatus={error ? 'error' : undefined}
      help={<FieldError id={errorId} messageKey={error} />}
    >
      {children}
    </Form.Item>
  );
}

export function QpsScreen({ graph }: { graph: QpsGraph }) {
  const { t } = useTranslation();
  const { token } = antdTheme.useToken();
  const [searchParams] = useSearchParams();
  const navigate = useNavigate();
  const location = useLocation();
  const urlKey = searchParams.toString();
  // The link's state: read again whenever the URL changes (back/forward, a pasted link, "Show graph").
  const [fromUrl, setFromUrl] = useState(() => ({
    key: urlKey,
    ...qpsStateFromSearch(searchParams, Date.now()),
  }));
  const [draft, setDraft] = useState<QpsState>(fromUrl.state);
  const [now, setNow] = useState(() => Date.now());
  const [tried, setTried] = useState(false);
  useEffect(() => {
    if (fromUrl.key === urlKey) return;
    const at = Date.now();
    const next = { key: urlKey, ...qpsStateFromSearch(new URLSearchParams(urlKey), at) };
    setFromUrl(next);
    setDraft(next.state);
    setNow(at);
  }, [urlKey, fromUrl.key]);
  const applied = fromUrl.explicit ? fromUrl.state : null;
  const appliedErrors = useMemo(() => (applied ? validateQps(applied, now) : {}), [applied, now]);
  const errors: QpsErrors = tried || fromUrl.explicit ? validateQps(draft, now) : {};
  const pending = applied !== null && qpsStateToSearch(draft) !== qpsStateToSearch(applied);

  // Names of the chosen ids (a shared link only has ids).
  const [names, setNames] = useState<ReadonlyMap<number, string>>(new Map());
  const unnamed = draft.ids.filter((id) => !names.has(id));
  const resolved = useApiQuery<SelectOption[]>(unnamed.length > 0 ? 'graphs/qps/:graph/entities' : null, {
    params: { graph },
    query: { ids: unnamed.join(','), limit: QPS_LIMITS.maxFilterValues },
  });
  if (resolved.data && resolved.data.some((o) => !names.has(Number(o.id)))) {
    const next = new Map(names);
    for (const o of resolved.data) next.set(Number(o.id), o.value);
    setNames(next);
  }
  const chosen: SelectOption[] = draft.ids.map((id) => ({ id, value: names.get(id) ?? `#${id}` }));

  const zones = useMemo(() => timeZones(), []);
  const zoneOptions = useMemo(() => {
    const list = zones.includes(draft.timezone) || !draft.timezone ? zones : [draft.timezone, ...zones];
    return list.map((z) => ({ value: z, label: z }));
  }, [zones, draft.timezone]);
  const intervals: number[] = [...QPS_LIMITS.intervals];
  if (!intervals.includes(draft.interval)) intervals.unshift(draft.interval);

  const update = (patch: Partial<QpsState>) => setDraft((d) => ({ ...d, ...patch }));

  /** A new zone keeps the same instants (the walls are rewritten in that zone). */
  const changeZone = (tz: string) => {
    setDraft((d) => {
      if (!isValidZone(tz) || !isValidZone(d.timezone)) return { ...d, timezone: tz };
      const s = wallToEpoch(d.start, d.timezone);
      const e = wallToEpoch(d.end, d.timezone);
      return {
        ...d,
        timezone: tz,
        start: s === null ? d.start : wallString(s, tz),
        end: e === null ? d.end : wallString(e, tz),
      };
    });
  };

  const graphQuery = useApiQuery<QpsGraphAnswer>(
    applied && !hasErrors(appliedErrors) ? 'graphs/qps/:graph' : null,
    { params: { graph }, query: applied ? qpsRequest(applied) : {} },
    // The last graph stays (dimmed by the spinner) while the next one loads.
    { staleTime: 60_000, placeholderData: (previous) => previous },
  );

  const apply = (state: QpsState) => {
    const at = Date.now();
    setNow(at);
    setTried(true);
    if (hasErrors(validateQps(state, at))) return;
    const search = qpsStateToSearch(state);
    // The same link again: draw it again with fresh figures.
    if (new URLSearchParams(search).toString() === urlKey) {
      void graphQuery.refetch();
      return;
    }
    // As written (readable `,` `:` `/`), not re-encoded by URLSearchParams.
    navigate({ pathname: location.pathname, search: `?${search}` });
  };

  const quickRange = (hours: number) => {
    const zone = isValidZone(draft.timezone) ? draft.timezone : 'UTC';
    update(lastHoursRange(Date.now(), zone, hours));
  };

  const entityLabel = t(`qpsui.field.entities.${graph}`);
  return (
    <div className="bo-qps">
      <Form
        layout="vertical"
        className="bo-qps__card bo-qps__form"
        style={{ background: token.colorBgContainer, borderColor: token.colorBorderSecondary }}
        data-testid="qps-form"
        onFinish={() => apply(draft)}
        requiredMark={false}
      >
        <div className="bo-qps__grid">
          <Field label={entityLabel} htmlFor="qps-ids" error={errors.ids} errorId="qps-error-ids" wide>
            <AutocompleteInput
              multiple
              id="qps-ids"
              aria-label={entityLabel}
              url={`graphs/qps/${graph}/entities`}
              field="search"
              fetcher={fetchEntities}
              maxCount={QPS_LIMITS.maxFilterValues}
              placeholder={t(`qpsui.placeholder.${graph}`)}
              status={errors.ids ? 'error' : undefined}
              value={chosen}
              onChange={(list) => {
                const next = new Map(names);
                for (const o of list) next.set(Number(o.id), o.value);
                setNames(next);
                update({ ids: list.map((o) => Number(o.id)) });
              }}
              style={{ width: '100%' }}
            />
          </Field>
          <Field label={t('qpsui.field.metrics')} error={errors.metrics} errorId="qps-error-metrics" wide>
            <Checkbox.Group
              aria-label={t('qpsui.field.metrics')}
              data-testid="qps-metrics"
              className="bo-qps__metrics"
              value={draft.metrics}
              onChange={(list) =>
                update({ metrics: QPS_METRICS.filter((m) => (list as QpsMetric[]).includes(m)) })
              }
              options={QPS_METRICS.map((m) => ({ value: m, label: t(`qps.metric.${m}`) }))}
            />
          </Field>
          <Field
            label={t('qpsui.field.start')}
            htmlFor="qps-start"
            error={errors.start}
            errorId="qps-error-start"
          >
            <DateTimeInput
              id="qps-start"
              aria-label={t('qpsui.field.start')}
              withSeconds={false}
              allowClear={false}
              timeZone={isValidZone(draft.timezone) ? draft.timezone : undefined}
              status={errors.start ? 'error' : undefined}
              value={draft.start || null}
              onChange={(v) => update({ start: v ?? '' })}
              style={{ width: '100%' }}
            />
          </Field>
          <Field label={t('qpsui.field.end')} htmlFor="qps-end" error={errors.end} errorId="qps-error-end">
            <DateTimeInput
              id="qps-end"
              aria-label={t('qpsui.field.end')}
              withSeconds={false}
              allowClear={false}
              timeZone={isValidZone(draft.timezone) ? draft.timezone : undefined}
              status={errors.end ? 'error' : undefined}
              value={draft.end || null}
              onChange={(v) => update({ end: v ?? '' })}
              style={{ width: '100%' }}
            />
          </Field>
          <Field label={t('qpsui.field.quick')} htmlFor="qps-quick" errorId="qps-error-quick">
            <Select<number>
              id="qps-quick"
              aria-label={t('qpsui.field.quick')}
              value={null}
              placeholder={t('qpsui.field.quick')}
              onChange={quickRange}
              options={QUICK_RANGES.map((h) => ({
                value: h,
                label:
                  h < 72 ? t('qpsui.quick.hours', { count: h }) : t('qpsui.quick.days', { count: h / 24 }),
              }))}
              style={{ width: '100%' }}
            />
          </Field>
          <Field
            label={t('qpsui.field.timezone')}
            htmlFor="qps-tz"
            error={errors.timezone}
            errorId="qps-error-timezone"
          >
            <Select<string>
              id="qps-tz"
              aria-label={t('qpsui.field.timezone')}
              showSearch
              value={draft.timezone}
              status={errors.timezone ? 'error' : undefined}
              onChange={changeZone}
              options={zoneOptions}
              virtual
              style={{ width: '100%' }}
            />
          </Field>
          <Field
            label={t('qps.interval')}
            htmlFor="qps-interval"
            error={errors.interval}
            errorId="qps-error-interval"
          >
            <Select<number>
              id="qps-interval"
              aria-label={t('qps.interval')}
              value={draft.interval}
              status={errors.interval ? 'error' : undefined}
              onChange={(interval) => update({ interval })}
              options={intervals.map((m) => ({ value: m, label: intervalLabel(m, t) }))}
              style={{ width: '100%' }}
            />
          </Field>
        </div>
        <Space wrap className="bo-qps__actions">
          <Button type="primary" htmlType="submit" data-testid="qps-show" loading={graphQuery.isFetching}>
            {applied && !pending ? t('qpsui.refresh') : t('qpsui.show')}
          </Button>
          {pending ? (
            <span
              className="bo-qps__pending"
              style={{ color: token.colorTextSecondary }}
              data-testid="qps-pending"
            >
              {t('qpsui.pending')}
            </span>
          ) : null}
        </Space>
      </Form>

      {!applied || hasErrors(appliedErrors) ? (
        applied ? null : (
          <div
            className="bo-qps__card bo-qps__empty"
            style={{ background: token.colorBgContainer, borderColor: token.colorBorderSecondary }}
          >
            <Alert type="info" showIcon title={t(`qpsui.empty.${graph}`)} data-testid="qps-empty" />
          </div>
        )
      ) : graphQuery.error ? (
        <Alert
          type="error"
          showIcon
          className="bo-qps__alert"
          title={t('qpsui.error_title')}
          description={errorText(graphQuery.error)}
          data-testid="qps-api-error"
          role="alert"
        />
      ) : (
        <QpsResult
          graph={graph}
          state={applied}
          answer={graphQuery.data ?? null}
          loading={graphQuery.isFetching}
          onRange={(start, end, interval) => apply({ ...applied, start, end, interval })}
        />
      )}
    </div>
  );
}
