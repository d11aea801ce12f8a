/**
 * Date range input (spec sections 3, 5 and 9): presets, range units, future dates blocked
 * unless allowed, optional min/max and a custom rule, two months on desktop and one on
 * mobile, YYYY-MM-DD, weeks from Monday. The value is `{start, end, preset?}` with ISO dates;
 * `preset` is set only when the range was picked from a preset, so a saved range can be
 * recomputed later (a saved "last 7 days" means the last 7 days from the day it is opened).
 *
 * The `report` route parameter (spec section 2, `/report/{id}`): the page reads the
 * parameter, loads that saved report and passes `reportParam` (the parameter's value) and
 * `reportRange` (the report's saved range). Whenever that pair changes, the input takes the
 * saved range (recomputing its preset) and reports it through onChange, once per report.
 */
import {
  isDatePreset,
  normalizeRange,
  presetRange,
  presetsForUnit,
  resolveRange,
  todayIn,
  validateDateRange,
  MONTH_DISPLAY_FORMAT,
  RANGE_DISPLAY_FORMAT,
  type DatePreset,
  type DateRange,
  type DateRangeValue,
  type RangeUnit,
} from '@backoffice/core/dates';
import { ConfigProvider, DatePicker, theme } from 'antd';
import type { Dayjs } from 'dayjs';
import {
  useContext,
  useEffect,
  useMemo,
  useRef,
  useState,
  type CSSProperties,
  type MouseEvent,
  type ReactNode,
} from 'react';
import { useTranslation } from 'react-i18next';
import {
  fromDayjs,
  pickerDisabledDate,
  pickerLimits,
  toDayjs,
  type PickerRuleProps,
} from './picker-dates.ts';
import { DESKTOP_QUERY, useMediaQuery } from './use-media-query.ts';

const { RangePicker } = DatePicker;

export interface DateRangeInputProps extends PickerRuleProps {
  value?: DateRangeValue | null;
  defaultValue?: DateRangeValue | null;
  onChange?: (value: DateRangeValue | null) => void;
  /** Picker granularity; a chosen range is widened to whole units. Default day. */
  unit?: RangeUnit;
  /** Presets to offer (default: those that fit the unit). An empty list hides them. */
  presets?: readonly DatePreset[];
  /** Months shown side by side; default 2 from 1280 px wide, else 1. */
  months?: 1 | 2;
  /** Value of the `report` route parameter; with `reportRange` it initialises the range. */
  reportParam?: string | null;
  /** The saved report's range, applied when `reportParam` is set. */
  reportRange?: DateRangeValue | null;
  allowClear?: boolean;
  disabled?: boolean;
  status?: 'error' | 'warning';
  size?: 'small' | 'middle' | 'large';
  id?: string;
  className?: string;
  style?: CSSProperties;
  'aria-label'?: string;
}

const PICKER_OF_UNIT = { day: 'date', week: 'week', month: 'month', quarter: 'quarter' } as const;

function toPair(range: DateRange | null | undefined): [Dayjs, Dayjs] | null {
  const start = toDayjs(range?.start);
  const end = toDayjs(range?.end);
  return start && end ? [start, end] : null;
}

/** Styles that leave one month visible (the first panel, with its "next" buttons shown) and stack the presets above it. */
function singleMonthCss(scope: string, prefix: string, splitColor: string): string {
  return `
.${scope} .${prefix}-panels > .${prefix}-panel:nth-child(n+2) { display: none; }
.${scope} .${prefix}-panels > .${prefix}-panel:first-child .${prefix}-header-next-btn,
.${scope} .${prefix}-panels > .${prefix}-panel:first-child .${prefix}-header-super-next-btn { visibility: visible !important; }
.${scope} .${prefix}-panel-layout { flex-direction: column; align-items: stretch; }
.${scope} .${prefix}-presets { max-width: none !important; min-width: 0 !important; }
.${scope} .${prefix}-presets ul { display: flex; flex-wrap: wrap; gap: 4px; height: auto !important; max-width: 288px; border-inline-end: 0 !important; border-bottom: 1px solid ${splitColor}; padding-bottom: 8px !important; }
.${scope} .${prefix}-presets ul li { margin: 0 !important; }
`;
}

const SINGLE_MONTH_SCOPE = 'bo-range-single-month';

export function DateRangeInput(props: DateRangeInputProps) {
  const {
    value,
    defaultValue,
    onChange,
    unit = 'day',
    presets,
    months,
    reportParam,
    reportRange,
    allowFuture,
    min,
    max,
    disabledDate,
    timeZone,
    allowClear = true,
    disabled,
    status,
    size,
    id,
    className,
    style,
  } = props;
  const { t } = useTranslation();
  const { getPrefixCls } = useContext(ConfigProvider.ConfigContext);
  const { token } = theme.useToken();
  const isDesktop = useMediaQuery(DESKTOP_QUERY);
  const shownMonths = months ?? (isDesktop ? 2 : 1);

  const [inner, setInner] = useState<DateRangeValue | null>(defaultValue ?? null);
  const current = value !== undefined ? value : inner;
  const commit = (next: DateRangeValue | null) => {
    if (value === undefined) setInner(next);
    onChange?.(next);
  };

  // Which preset the user clicked: antd reports only the dates, so the click is noted on the way down.
  const clickedPreset = useRef<DatePreset | undefined>(undefined);
  const rules = { allowFuture, min, max, disabledDate, timeZone };

  const appliedReport = useRef<string | null>(null);
  const reportKey =
    reportParam && reportRange
      ? `${reportParam}|${reportRange.start}|${reportRange.end}|${reportRange.preset ?? ''}`
      : null;
  useEffect(() => {
    if (!reportKey || !reportRange || appliedReport.current === reportKey) return;
    appliedReport.current = reportKey;
    const next = resolveRange(reportRange, new Date(), timeZone);
    if (value === undefined) setInner(next);
    onChange?.(next);
    // Applied once per report: the key holds everything that matters.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [reportKey]);

  const normalise = (range: DateRange) =>
    normalizeRange(range, unit, { today: todayIn(new Date(), timeZone), allowFuture });

  const offered = presets ?? presetsForUnit(unit);
  const presetItems = useMemo(
    () =>
      offered
        .filter((p) => {
          // A preset the rules would refuse (say, before `min`) is not offered.
          const range = normalizeRange(presetRange(p, new Date(), timeZone), unit, {
            today: todayIn(new Date(), timeZone),
            allowFuture,
          });
          return (
            validateDateRange(range, {
              today: todayIn(new Date(), timeZone),
              allowFuture,
              min,
              max,
              disabledDate,
            }) === null
          );
        })
        .map((p) => ({
          label: <span data-preset={p}>{t(`date.preset.${p}`)}</span>,
          value: () => toPair(presetRange(p, new Date(), timeZone)) as [Dayjs, Dayjs],
        })),
    [offered, timeZone, unit, allowFuture, min, max, disabledDate, t],
  );

  const handleChange = (dates: [Dayjs | null, Dayjs | null] | null) => {
    const preset = clickedPreset.current;
    clickedPreset.current = undefined;
    if (!dates || !dates[0] || !dates[1]) {
      commit(null);
      return;
    }
    const range = normalise({ start: fromDayjs(dates[0]), end: fromDayjs(dates[1]) });
    if (preset) {
      const expected = normalise(presetRange(preset, new Date(), timeZone));
      if (expected.start === range.start && expected.end === range.end) {
        commit({ ...range, preset });
        return;
      }
    }
    commit(range);
  };

  const onPanelClickCapture = (event: MouseEvent<HTMLDivElement>) => {
    const item = (event.target as HTMLElement).closest('li');
    const preset = item?.querySelector('[data-preset]')?.getAttribute('data-preset');
    clickedPreset.current = isDatePreset(preset) ? preset : undefined;
  };

  const pickerPrefix = getPrefixCls('picker');
  const single = shownMonths === 1;
  const panelRender = (panel: ReactNode) => (
    <div onClickCapture={onPanelClickCapture}>
      {single && <style>{singleMonthCss(SINGLE_MONTH_SCOPE, pickerPrefix, token.colorSplit)}</style>}
      {panel}
    </div>
  );

  // With one visible month the navigation limits would page the hidden second month into view.
  const limits = single ? {} : pickerLimits(rules);
  const format = unit === 'day' ? RANGE_DISPLAY_FORMAT : unit === 'month' ? MONTH_DISPLAY_FORMAT : undefined;

  return (
    <RangePicker
      id={id}
      aria-label={props['aria-label'] ?? t('inputs.date_range.label')}
      className={className}
      style={style}
      size={size}
      status={status}
      disabled={disabled}
      allowClear={allowClear}
      picker={PICKER_OF_UNIT[unit]}
      format={format}
      value={toPair(current)}
      onChange={(dates) => handleChange(dates as [Dayjs | null, Dayjs | null] | null)}
      presets={presetItems}
      disabledDate={pickerDisabledDate(rules)}
      {...limits}
      placeholder={unit === 'day' ? [t('inputs.date_range.start'), t('inputs.date_range.end')] : undefined}
      panelRender={panelRender}
      classNames={{ popup: { root: single ? SINGLE_MONTH_SCOPE : undefined } }}
    />
  );
}
