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
  if (/^[A-Z]{2}$/.test(value) && meta.label.endsWith('country')) {
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
  return typeof value === 'object' ? JSON.stringify(value) : String(value);
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
  return String(value);
}
