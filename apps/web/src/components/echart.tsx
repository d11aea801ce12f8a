/**
 * An ECharts canvas that follows the app theme (light or dark), resizes with its box, and is
 * disposed on unmount. Only the chart types and components the app uses are registered, so the
 * library stays out of the main bundle (screens that chart are lazy).
 *
 * `option` is applied with `notMerge` (a new option replaces the old one). `onEvents` binds
 * ECharts events (for example `datazoom` or `brushSelected`) by name.
 */
import { BarChart, LineChart } from 'echarts/charts';
import {
  BrushComponent,
  DataZoomComponent,
  GridComponent,
  LegendComponent,
  MarkAreaComponent,
  MarkLineComponent,
  MarkPointComponent,
  TitleComponent,
  ToolboxComponent,
  TooltipComponent,
} from 'echarts/components';
import * as echarts from 'echarts/core';
import { CanvasRenderer, SVGRenderer } from 'echarts/renderers';
import { useEffect, useRef, type CSSProperties } from 'react';
import { useSession } from '../lib/session-store.ts';
import { REDUCED_MOTION_QUERY, useMediaQuery } from './use-media-query.ts';

echarts.use([
  BarChart,
  LineChart,
  BrushComponent,
  DataZoomComponent,
  GridComponent,
  LegendComponent,
  MarkAreaComponent,
  MarkLineComponent,
  MarkPointComponent,
  TitleComponent,
  ToolboxComponent,
  TooltipComponent,
  CanvasRenderer,
  SVGRenderer,
]);

export type EChartOption = echarts.EChartsCoreOption;
export type EChartInstance = echarts.ECharts;

export interface EChartProps {
  option: EChartOption;
  /** CSS height of the chart box (default 320px). */
  height?: number | string;
  className?: string;
  style?: CSSProperties;
  /** Accessible name of the chart (role="img"). */
  ariaLabel: string;
  testId?: string;
  onEvents?: Readonly<Record<string, (params: unknown, chart: EChartInstance) => void>>;
  /** Called after each (re)initialisation, for screens that drive the chart (zoom buttons). */
  onReady?: (chart: EChartInstance) => void;
  /** 'svg' draws DOM nodes (tests can read them; fine for a few thousand points); default canvas. */
  renderer?: 'canvas' | 'svg';
}

export function EChart({ option, height = 320, className, style, ariaLabel, testId, onEvents, onReady, renderer = 'canvas' }: EChartProps) {
  const box = useRef<HTMLDivElement>(null);
  const chart = useRef<EChartInstance | null>(null);
  const theme = useSession((s) => s.theme);
  const reducedMotion = useMediaQuery(REDUCED_MOTION_QUERY);
  const events = useRef(onEvents);
  const ready = useRef(onReady);
  useEffect(() => {
    events.current = onEvents;
    ready.current = onReady;
  });

  // (Re)create on theme change: ECharts themes apply at init.
  useEffect(() => {
    const el = box.current;
    if (!el) return undefined;
    const instance = echarts.init(el, theme === 'dark' ? 'dark' : undefined, { renderer });
    chart.current = instance;
    const observer = typeof ResizeObserver === 'undefined' ? null : new ResizeObserver(() => instance.resize());
    observer?.observe(el);
    return () => {
      observer?.disconnect();
      instance.dispose();
      chart.current = null;
    };
  }, [theme, renderer]);

  useEffect(() => {
    const instance = chart.current;
    if (!instance) return;
    instance.setOption({ backgroundColor: 'transparent', ...option, ...(reducedMotion ? { animation: false } : {}) }, { notMerge: true });
    ready.current?.(instance);
  }, [option, theme, renderer, reducedMotion]);

  useEffect(() => {
    const instance = chart.current;
    if (!instance || !onEvents) return undefined;
    const names = Object.keys(onEvents);
    const handlers = names.map((name) => {
      const handler = (params: unknown) => events.current?.[name]?.(params, instance);
      instance.on(name, handler);
      return [name, handler] as const;
    });
    return () => {
      for (const [name, handler] of handlers) instance.off(name, handler);
    };
    // Rebind only when the set of event names or the instance (theme) changes.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [theme, onEvents ? Object.keys(onEvents).join(',') : '']);

  return (
    <div
      ref={box}
      role="img"
      aria-label={ariaLabel}
      data-testid={testId}
      className={className}
      style={{ width: '100%', height, ...style }}
    />
  );
}
