/**
 * The report builder: date range with presets (mandatory), time zone, grouped dimensions and
 * metrics, include/exclude filters on any non-time dimension, sort, and Run. Messages come from
 * the same rules as the API and sit under the field they are about; nothing typed is lost.
 */
import { CloseOutlined, PlayCircleOutlined, PlusOutlined } from '@ant-design/icons';
import type { DateRangeValue } from '@backoffice/core/dates';
import {
  FILTER_DIMENSIONS,
  isEnumDimension,
  isTimeDimension,
  type Dimension,
  type DimensionGroup,
  type FilterDimension,
  type Metric,
} from '@backoffice/core/reports';
import { Button, Col, Form, Row, Segmented, Select, Space, Tag, Typography } from 'antd';
import { useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { AutocompleteInput } from '../../components/autocomplete-input.tsx';
import { DateRangeInput } from '../../components/date-range-input.tsx';
import { useLocale } from '../../components/use-locale.ts';
import { dimensionValuesUrl, fetchDimensionValues, type Catalog } from './dataviewer-api.ts';
import { localFilterLabel } from './dataviewer-format.ts';
import { hasTimes, newFilterKey, pickerValue, type BuilderState, type FieldErrors, type FilterState } from './dataviewer-model.ts';

const DIMENSION_GROUPS: DimensionGroup[] = ['time', 'supply', 'demand', 'context'];
const METRIC_GROUPS: { group: string; metrics: Metric[] }[] = [
  { group: 'volume', metrics: ['ad_requests', 'bid_requests', 'bids', 'wins', 'impressions', 'clicks'] },
  { group: 'money', metrics: ['revenue', 'cost', 'margin', 'margin_pct', 'ecpm'] },
  { group: 'rates', metrics: ['bid_rate', 'win_rate', 'fill_rate', 'render_rate', 'ctr'] },
  { group: 'quality', metrics: ['timeouts', 'errors'] },
];

/** IANA zones the browser knows, with UTC, Europe/Madrid and the current choice always there. */
export function timeZoneOptions(current: string): string[] {
  const intl = Intl as unknown as { supportedValuesOf?: (key: string) => string[] };
  let zones: string[] = [];
  try {
    zones = intl.supportedValuesOf?.('timeZone') ?? [];
  } catch {
    zones = [];
  }
  return [...new Set(['UTC', 'Europe/Madrid', current, ...zones])].filter(Boolean);
}

export interface BuilderProps {
  state: BuilderState;
  onChange: (next: BuilderState) => void;
  catalog: Catalog | undefined;
  errors: FieldErrors;
  onRun: () => void;
  running: boolean;
  /** The `report` route parameter (saved DataViewer id) and its saved range, for the date input. */
  reportParam?: string | null;
  reportRange?: DateRangeValue | null;
}

export function DataviewerBuilder({ state, onChange, catalog, errors, onRun, running, reportParam, reportRange }: BuilderProps) {
  const { t } = useTranslation();
  const locale = useLocale();
  const set = (patch: Partial<BuilderState>) => onChange({ ...state, ...patch });

  const zones = useMemo(() => timeZoneOptions(state.timezone), [state.timezone]);
  const chosenTime = state.dimensions.find(isTimeDimension);
  const dims = catalog?.dimensions ?? [];
  const dimensionOptions = DIMENSION_GROUPS.map((group) => ({
    label: t(`report.group.${group}`),
    title: t(`report.group.${group}`),
    options: dims
      .filter((d) => d.group === group)
      .map((d) => ({
        value: d.key,
        label: t(d.label),
        // One time dimension at most (the API's rule): the others wait until it is removed.
        disabled: d.kind === 'time' && chosenTime !== undefined && chosenTime !== d.key,
      })),
  })).filter((g) => g.options.length > 0);
  const known = new Set((catalog?.metrics ?? []).map((m) => m.key));
  const metricOptions = METRIC_GROUPS.map(({ group, metrics }) => ({
    label: t(`report.group.${group}`),
    title: t(`report.group.${group}`),
    options: metrics.filter((m) => known.has(m)).map((m) => ({ value: m, label: t(`report.metric.${m}`) })),
  })).filter((g) => g.options.length > 0);

  const sortFields = [...state.dimensions, ...state.metrics];
  const sort = state.sort[0];

  const updateFilter = (key: string, patch: Partial<FilterState>) =>
    set({ filters: state.filters.map((f) => (f.key === key ? { ...f, ...patch } : f)) });
  const usedFilterDims = new Set(state.filters.map((f) => f.dimension));
  const addFilter = () => {
    const dimension = FILTER_DIMENSIONS.find((d) => !usedFilterDims.has(d)) ?? 'demand_partner';
    set({ filters: [...state.filters, { key: newFilterKey(), dimension, op: 'include', values: [] }] });
  };

  return (
    <Form
      layout="vertical"
      requiredMark
      onFinish={onRun}
      data-testid="dv-builder"
      className="dv-builder"
    >
      <Row gutter={[16, 0]}>
        <Col xs={24} md={12} xl={7}>
          <Form.Item
            label={t('report.range')}
            required
            validateStatus={errors.range ? 'error' : undefined}
            help={errors.range ? <span data-testid="dv-error-range">{t(errors.range)}</span> : undefined}
            htmlFor="dv-range"
          >
            <DateRangeInput
              id="dv-range"
              style={{ width: '100%' }}
              value={pickerValue(state.range)}
              timeZone={state.timezone}
              reportParam={reportParam}
              reportRange={reportRange}
              status={errors.range ? 'error' : undefined}
              onChange={(value) => set({ range: value ? { start: value.start, end: value.end, ...(value.preset ? { preset: value.preset } : {}) } : null })}
            />
            {hasTimes(state.range) && state.range ? (
              <Tag
                className="dv-exact-range"
                closable
                closeIcon={<CloseOutlined aria-label={t('dv.range.whole_days')} />}
                onClose={(e) => {
                  e.preventDefault();
                  const days = pickerValue(state.range);
                  set({ range: days ? { start: days.start, end: days.end } : null });
                }}
              >
                {t('dv.range.exact', { start: state.range.start, end: state.range.end })}
              </Tag>
            ) : null}
          </Form.Item>
        </Col>
        <Col xs={24} md={12} xl={5}>
          <Form.Item
            label={t('report.timezone')}
            htmlFor="dv-timezone"
            validateStatus={errors.timezone ? 'error' : undefined}
            help={errors.timezone ? t(errors.timezone) : undefined}
          >
            <Select
              id="dv-timezone"
              showSearch
              value={state.timezone}
              placeholder={t('dv.timezone.placeholder')}
              options={zones.map((z) => ({ value: z, label: z }))}
              onChange={(timezone: string) => set({ timezone })}
              virtual
            />
          </Form.Item>
        </Col>
        <Col xs={24} md={12} xl={6}>
          <Form.Item
            label={t('report.dimensions')}
            htmlFor="dv-dimensions"
            validateStatus={errors.dimensions ? 'error' : undefined}
            help={errors.dimensions ? <span data-testid="dv-error-dimensions">{t(errors.dimensions)}</span> : undefined}
          >
            <Select<Dimension[]>
              id="dv-dimensions"
              data-testid="dv-dimensions"
              mode="multiple"
              allowClear
              value={state.dimensions}
              placeholder={t('dv.dimensions.placeholder')}
              options={dimensionOptions}
              optionFilterProp="label"
              maxCount={catalog ? 6 : undefined}
              onChange={(dimensions) => set({ dimensions })}
            />
          </Form.Item>
        </Col>
        <Col xs={24} md={12} xl={6}>
          <Form.Item
            label={t('report.metrics')}
            htmlFor="dv-metrics"
            validateStatus={errors.metrics ? 'error' : undefined}
            help={errors.metrics ? t(errors.metrics) : undefined}
          >
            <Select<Metric[]>
              id="dv-metrics"
              data-testid="dv-metrics"
              mode="multiple"
              allowClear
              value={state.metrics}
              placeholder={t('dv.metrics.placeholder')}
              options={metricOptions}
              optionFilterProp="label"
              onChange={(metrics) => set({ metrics })}
            />
          </Form.Item>
        </Col>
      </Row>

      <Form.Item label={t('report.filters')} className="dv-filters" data-testid="dv-filters">
        {state.filters.length === 0 ? (
          <Typography.Text type="secondary" className="dv-filters__none">
            {t('dv.filter.none')}
          </Typography.Text>
        ) : null}
        {state.filters.map((f) => {
          const error = errors[`filter:${f.key}`];
          return (
            <div key={f.key} className="dv-filter" data-testid="dv-filter" data-dimension={f.dimension}>
              <Select<FilterDimension>
                aria-label={t('dv.filter.dimension')}
                className="dv-filter__dimension"
                value={f.dimension}
                showSearch
                optionFilterProp="label"
                options={FILTER_DIMENSIONS.map((d) => ({ value: d, label: t(`report.dimension.${d}`) }))}
                onChange={(dimension) => updateFilter(f.key, { dimension, values: [] })}
              />
              <Segmented<'include' | 'exclude'>
                className="dv-filter__op"
                value={f.op}
                options={[
                  { value: 'include', label: t('report.filter.include') },
                  { value: 'exclude', label: t('report.filter.exclude') },
                ]}
                onChange={(op) => updateFilter(f.key, { op })}
              />
              <div className="dv-filter__values">
                {isEnumDimension(f.dimension) ? (
                  <Select<(string | number)[]>
                    mode="multiple"
                    aria-label={t('dv.filter.values')}
                    style={{ width: '100%' }}
                    status={error ? 'error' : undefined}
                    value={f.values.map((v) => v.id)}
                    placeholder={t('dv.filter.enum_placeholder')}
                    optionFilterProp="label"
                    maxTagCount="responsive"
                    options={(dims.find((d) => d.key === f.dimension)?.values ?? []).map((code) => ({
                      value: code,
                      label: localFilterLabel(f.dimension, code, locale, t),
                    }))}
                    onChange={(ids) => updateFilter(f.key, { values: ids.map((id) => ({ id, value: localFilterLabel(f.dimension, id, locale, t) })) })}
                  />
                ) : (
                  <AutocompleteInput
                    key={f.dimension}
                    multiple
                    aria-label={t('dv.filter.values')}
                    style={{ width: '100%' }}
                    status={error ? 'error' : undefined}
                    url={dimensionValuesUrl(f.dimension)}
                    field="search"
                    fetcher={fetchDimensionValues}
                    value={f.values}
                    onChange={(values) => updateFilter(f.key, { values })}
                  />
                )}
                {error ? (
                  <Typography.Text type="danger" className="dv-filter__error">
                    {t(error)}
                  </Typography.Text>
                ) : null}
              </div>
              <Button
                type="text"
                icon={<CloseOutlined />}
                aria-label={t('dv.filter.remove')}
                title={t('dv.filter.remove')}
                onClick={() => set({ filters: state.filters.filter((x) => x.key !== f.key) })}
              />
            </div>
          );
        })}
        <Button icon={<PlusOutlined />} onClick={addFilter} disabled={state.filters.length >= 20} data-testid="dv-add-filter">
          {t('report.filter.add')}
        </Button>
      </Form.Item>

      <div className="dv-builder__footer">
        <Space wrap size={8} className="dv-sort">
          <span className="dv-sort__label">{t('dv.sort')}</span>
          <Select<string>
            aria-label={t('dv.sort')}
            className="dv-sort__field"
            value={sort?.field ?? ''}
            status={errors.sort ? 'error' : undefined}
            options={[
              { value: '', label: t('dv.sort.default') },
              ...sortFields.map((f) => ({ value: f, label: t(isTimeOrDim(f) ? `report.dimension.${f}` : `report.metric.${f}`) })),
            ]}
            onChange={(field) => set({ sort: field ? [{ field, dir: sort?.dir ?? (isTimeOrDim(field) ? 'asc' : 'desc') }] : [] })}
          />
          <Segmented<'asc' | 'desc'>
            disabled={!sort}
            value={sort?.dir ?? 'desc'}
            options={[
              { value: 'asc', label: t('dv.sort.asc') },
              { value: 'desc', label: t('dv.sort.desc') },
            ]}
            onChange={(dir) => sort && set({ sort: [{ field: sort.field, dir }] })}
          />
        </Space>
        <Button type="primary" htmlType="submit" icon={<PlayCircleOutlined />} loading={running} data-testid="dv-run">
          {running ? t('report.running') : t('report.run')}
        </Button>
      </div>
    </Form>
  );
}

const DIMENSION_KEYS = new Set<string>(['hour', 'day', 'week', 'month', ...FILTER_DIMENSIONS]);
const isTimeOrDim = (field: string) => DIMENSION_KEYS.has(field);
