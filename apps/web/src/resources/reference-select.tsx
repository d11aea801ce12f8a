/**
 * A reference to another resource's row: a searchable select over that resource's autocomplete
 * endpoint (spec section 7: at least 2 typed characters, a 750 ms debounce, limit 10), which shows
 * the current row's name from the start (resolved with `ids=`).
 */
import { RESOURCES } from '@backoffice/core/resources/index';
import { useQuery } from '@tanstack/react-query';
import { Select } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { api } from '../lib/api.ts';
import { useDebouncedValue } from '../lib/use-debounced-value.ts';

interface Option {
  id: number;
  value: string;
}

export interface ReferenceSelectProps {
  resource: string;
  /**
   * Another endpoint with the autocomplete's contract (`<titleField>=text&limit=` or `ids=`), for a
   * screen whose users may pick rows of a resource they cannot read (the floors' publishers).
   */
  path?: string;
  id?: string;
  value?: number | null;
  onChange?: (v: number | null) => void;
  placeholder?: string;
  className?: string;
  'aria-label'?: string;
}

/** Several references at once (a list filter). */
export function ReferenceMultiSelect(props: Omit<ReferenceSelectProps, 'value' | 'onChange'> & { value: number[]; onChange: (v: number[]) => void }) {
  return <ReferenceSelectBase {...props} multiple />;
}

/** The names of some rows of a resource (resolved with `ids=`, cached like the select's). */
export function useReferenceLabels(resource: string, ids: readonly number[], customPath?: string) {
  const def = RESOURCES[resource]!;
  const path = customPath ?? `${def.path.replace(/^\/v1\//, '')}/autocomplete`;
  return useQuery<Option[]>({
    queryKey: ['api', 'resource', resource, 'autocomplete-ids', path, ids.join(',')],
    queryFn: ({ signal }) => api.request<Option[]>(path, { query: { ids: ids.join(',') }, signal }),
    enabled: ids.length > 0,
    staleTime: 60_000,
  });
}

/** The name of one row of a resource, as text. */
export function ReferenceLabel({ resource, id, path }: { resource: string; id: number | null | undefined; path?: string }) {
  const labels = useReferenceLabels(resource, typeof id === 'number' ? [id] : [], path);
  if (typeof id !== 'number') return <>—</>;
  return <>{labels.data?.find((o) => o.id === id)?.value ?? `#${id}`}</>;
}

export function ReferenceSelect(props: ReferenceSelectProps) {
  return <ReferenceSelectBase {...props} value={props.value} onChange={(v) => props.onChange?.((v as number | null | undefined) ?? null)} />;
}

function ReferenceSelectBase({
  resource,
  path: customPath,
  id,
  value,
  onChange,
  multiple,
  placeholder,
  className,
  'aria-label': ariaLabel,
}: {
  resource: string;
  path?: string;
  id?: string;
  value?: number | number[] | null;
  onChange?: (v: never) => void;
  multiple?: boolean;
  placeholder?: string;
  className?: string;
  'aria-label'?: string;
}) {
  const { t } = useTranslation();
  const def = RESOURCES[resource]!;
  const [search, setSearch] = useState('');
  const term = useDebouncedValue(search.trim(), 750);
  const path = customPath ?? `${def.path.replace(/^\/v1\//, '')}/autocomplete`;
  const found = useQuery<Option[]>({
    queryKey: ['api', 'resource', resource, 'autocomplete', path, term],
    queryFn: ({ signal }) => api.request<Option[]>(path, { query: { [def.titleField]: term, limit: 10 }, signal }),
    enabled: term.length >= 2,
  });
  const ids = Array.isArray(value) ? value : typeof value === 'number' ? [value] : [];
  const current = useReferenceLabels(resource, ids, customPath);
  const options = new Map<number, string>();
  for (const o of current.data ?? []) options.set(o.id, o.value);
  for (const o of found.data ?? []) options.set(o.id, o.value);
  return (
    <Select<number | number[]>
      id={id}
      mode={multiple ? 'multiple' : undefined}
      maxTagCount={multiple ? 'responsive' : undefined}
      showSearch={{ filterOption: false, onSearch: setSearch }}
      allowClear
      aria-label={ariaLabel}
      className={className}
      value={value ?? undefined}
      onChange={(v) => (onChange as ((x: unknown) => void) | undefined)?.(v ?? (multiple ? [] : null))}
      loading={found.isFetching}
      placeholder={placeholder ?? t('inputs.autocomplete.placeholder')}
      notFoundContent={term.length < 2 ? t('inputs.autocomplete.placeholder') : found.isFetching ? t('inputs.autocomplete.searching') : t('inputs.autocomplete.no_results')}
      options={[...options].map(([v, label]) => ({ value: v, label }))}
    />
  );
}
