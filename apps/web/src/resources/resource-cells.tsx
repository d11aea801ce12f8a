/** How a resource field's value reads in a cell, a filter option or a history line. */
import type { FieldMeta } from '@backoffice/core/resources/define';
import { Tag } from 'antd';
import type { ReactNode } from 'react';
import { i18n, t } from '../lib/i18n.ts';

const regionNames = new Map<string, Intl.DisplayNames>();

/** The label of an enum value: its i18n key when there is one, a country's name for country fields. */
export function optionLabel(meta: FieldMeta, value: string, locale: string): string {
  const key = `${meta.label}.${value}`;
  if (i18n.exists(key)) return t(key);
  // Two capital letters with no label of their own: a country code (a company's country, a geo list).
  if (/^[A-Z]{2}$/.test(value)) {
    let names = regionNames.get(locale);
    if (!names) {
      names = new Intl.DisplayNames([locale], { type: 'region' });
      regionNames.set(locale, names);
    }
    return `${names.of(value) ?? value} (${value})`;
  }
  return value;
}

export function formatDateTime(value: unknown, locale: string): string {
  if (typeof value !== 'string') return '';
  const date = new Date(value);
  if (Number.isNaN(date.getTime())) return value;
  return new Intl.DateTimeFormat(locale, { dateStyle: 'medium', timeStyle: 'short' }).format(date);
}

/** The text of a value (history, the conflict dialog): enums labelled, dates formatted, empty as "—". */
export function valueText(meta: FieldMeta | undefined, value: unknown, locale: string): string {
  if (value === null || value === undefined || value === '') return '—';
  if (meta?.type === 'enum' && typeof value === 'string') return optionLabel(meta, value, locale);
  if (meta?.type === 'datetime') return formatDateTime(value, locale);
  if (meta?.type === 'message' && typeof value === 'string') return i18n.exists(value) ? t(value) : value;
  if (meta?.type === 'boolean') return value ? t('common.yes') : t('common.no');
  if (meta?.type === 'json') return listText(value, meta) || '—';
  return numberText(meta, value, locale) ?? (typeof value === 'object' ? JSON.stringify(value) : String(value));
}

/** A JSON list as text: the names of a list of objects, or the items of a list of texts. */
function listText(value: unknown, meta?: FieldMeta): string | null {
  if (!Array.isArray(value)) return null;
  return value
    .map((item) => (typeof item === 'string' ? (meta?.options ? optionLabel(meta, item, i18n.language) : item) : item && typeof item === 'object' && 'name' in item ? String((item as { name: unknown }).name) : JSON.stringify(item)))
    .join(', ');
}

/** How a status reads: fine, in progress, off, or wrong. */
export type StatusTone = 'ok' | 'info' | 'off' | 'bad';

/** A status tag whose text keeps its contrast in both themes (resources.css). */
export function StatusTag({ tone, children, testId }: { tone: StatusTone; children: ReactNode; testId?: string }) {
  return (
    <Tag className={`bo-status-tag bo-status-tag--${tone}`} data-testid={testId}>
      {children}
    </Tag>
  );
}

/** A cell that shows an enum field (a status, a workflow state) as a tag of its tone. */
export function statusCell(meta: FieldMeta, tones: Readonly<Record<string, StatusTone>>, testId: string) {
  return (value: unknown): ReactNode =>
    typeof value === 'string' ? (
      <StatusTag tone={tones[value] ?? 'info'} testId={testId}>
        {optionLabel(meta, value, i18n.language)}
      </StatusTag>
    ) : null;
}

export function fieldCell(meta: FieldMeta, value: unknown, locale: string, label?: unknown): ReactNode {
  if (meta.type === 'ref') return typeof label === 'string' ? label : value === null || value === undefined ? <span className="bo-res-empty">—</span> : `#${String(value)}`;
  if (meta.type === 'json') {
    const text = listText(value, meta);
    return text ? text : <span className="bo-res-empty">—</span>;
  }
  if (value === null || value === undefined || value === '') return <span className="bo-res-empty">—</span>;
  if (meta.type === 'enum' && typeof value === 'string') {
    return meta.label.endsWith('country') ? <span title={optionLabel(meta, value, locale)}>{value}</span> : optionLabel(meta, value, locale);
  }
  if (meta.type === 'boolean') return <StatusTag tone={value ? 'ok' : 'off'}>{value ? t('common.yes') : t('common.no')}</StatusTag>;
  if (meta.type === 'datetime') return formatDateTime(value, locale);
  if (meta.type === 'message' && typeof value === 'string') return i18n.exists(value) ? t(value) : value;
  return numberText(meta, value, locale) ?? String(value);
}

const numberFormats = new Map<string, Intl.NumberFormat>();
/**
 * A number, a percentage or an amount as the locale writes it (15,000 / 15.000; an amount with 2 to
 * 4 decimals), for display only: amounts arrive as decimal text and are never computed with here.
 */
function numberText(meta: FieldMeta | undefined, value: unknown, locale: string): string | null {
  if (meta?.type !== 'number' && meta?.type !== 'money' && meta?.type !== 'percent') return null;
  const n = typeof value === 'number' ? value : typeof value === 'string' && value.trim() !== '' ? Number(value) : NaN;
  if (!Number.isFinite(n)) return null;
  const key = `${locale}:${meta.type}`;
  let format = numberFormats.get(key);
  if (!format) {
    format = new Intl.NumberFormat(locale, meta.type === 'money' ? { minimumFractionDigits: 2, maximumFractionDigits: 4 } : { maximumFractionDigits: 2 });
    numberFormats.set(key, format);
  }
  return format.format(n);
}
