/**
 * The deal form's own inputs: pickers of demand partners, publishers and ad units searched on the
 * server (`/v1/deals/partners|publishers|ad-units`, under the deals' own permission: a person who
 * manages deals may not read the partner or publisher screens), the ad units narrowed to the chosen
 * publishers, tag inputs for seats and advertiser domains, the type (choosing programmatic
 * guaranteed sets the fixed price it needs) and the auction type.
 */
import { AUCTION_TYPES, DEAL_TYPES, FIXED_PRICE } from '@backoffice/core/resources/deals';
import { useQuery } from '@tanstack/react-query';
import { Form, Select } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { api } from '../../lib/api.ts';
import { useDebouncedValue } from '../../lib/use-debounced-value.ts';

interface PickerOption {
  id: number;
  value: string;
  publisher?: string;
}

type PickerPath = 'partners' | 'publishers' | 'ad-units';

interface PickerProps<V> {
  id?: string;
  value?: V;
  onChange?: (value: V) => void;
  placeholder?: string;
}

/** Options of a picker: what the search finds, and the names of the chosen ids (resolved with `ids=`). */
function usePickerOptions(
  path: PickerPath,
  chosen: readonly number[],
  search: string,
  extra: Record<string, string> = {},
) {
  const term = useDebouncedValue(search.trim(), 300);
  const found = useQuery<PickerOption[]>({
    queryKey: ['api', 'deals', path, 'search', term, extra],
    queryFn: ({ signal }) =>
      api.request<PickerOption[]>(`deals/${path}`, {
        query: { ...(term ? { q: term } : {}), ...extra, limit: 20 },
        signal,
      }),
    staleTime: 60_000,
  });
  const labels = useQuery<PickerOption[]>({
    queryKey: ['api', 'deals', path, 'ids', chosen.join(',')],
    queryFn: ({ signal }) =>
      api.request<PickerOption[]>(`deals/${path}`, { query: { ids: chosen.join(',') }, signal }),
    enabled: chosen.length > 0,
    staleTime: 60_000,
  });
  const options = new Map<number, PickerOption>();
  for (const o of labels.data ?? []) options.set(o.id, o);
  for (const o of found.data ?? []) options.set(o.id, o);
  return { options: [...options.values()], fetching: found.isFetching };
}

function PickerSelect({
  path,
  multiple,
  id,
  value,
  onChange,
  placeholder,
  extra,
}: {
  path: PickerPath;
  multiple: boolean;
  id?: string;
  value: number | number[] | null | undefined;
  onChange: (v: number | number[] | null) => void;
  placeholder?: string;
  extra?: Record<string, string>;
}) {
  const { t } = useTranslation();
  const [search, setSearch] = useState('');
  const chosen = Array.isArray(value) ? value : typeof value === 'number' ? [value] : [];
  const { options, fetching } = usePickerOptions(path, chosen, search, extra);
  return (
    <Select<number | number[]>
      id={id}
      mode={multiple ? 'multiple' : undefined}
      showSearch={{ filterOption: false, onSearch: setSearch }}
      allowClear
      value={value ?? undefined}
      onChange={(v) => onChange(v ?? (multiple ? [] : null))}
      onBlur={() => setSearch('')}
      loading={fetching}
      placeholder={placeholder}
      notFoundContent={fetching ? t('inputs.autocomplete.searching') : t('inputs.autocomplete.no_results')}
      options={options.map((o) => ({
        value: o.id,
        label: o.publisher ? `${o.value} · ${o.publisher}` : o.value,
      }))}
      data-testid={`deal-picker-${path}`}
    />
  );
}

export function PartnerPicker({ id, value, onChange }: PickerProps<number | null>) {
  const { t } = useTranslation();
  return (
    <PickerSelect
      path="partners"
      multiple={false}
      id={id}
      value={value}
      onChange={(v) => onChange?.(v as number | null)}
      placeholder={t('deal.partner_placeholder')}
    />
  );
}

export function PublishersPicker({ id, value, onChange }: PickerProps<number[]>) {
  const { t } = useTranslation();
  return (
    <PickerSelect
      path="publishers"
      multiple
      id={id}
      value={value ?? []}
      onChange={(v) => onChange?.(v as number[])}
      placeholder={t('deal.publishers_placeholder')}
    />
  );
}

/** Ad units, of the chosen publishers when there are some. */
export function AdUnitsPicker({ id, value, onChange }: PickerProps<number[]>) {
  const { t } = useTranslation();
  const publisherIds = Form.useWatch<number[] | undefined>('publisher_ids') ?? [];
  const extra = publisherIds.length > 0 ? { publisher_ids: publisherIds.join(',') } : undefined;
  return (
    <PickerSelect
      path="ad-units"
      multiple
      id={id}
      value={value ?? []}
      onChange={(v) => onChange?.(v as number[])}
      placeholder={t('deal.ad_units_placeholder')}
      extra={extra}
    />
  );
}

/** Free texts as tags (seat ids, advertiser domains): Enter, a comma or a space adds one. */
export function TagsInput({ id, value, onChange, placeholder }: PickerProps<string[]>) {
  return (
    <Select<string[]>
      id={id}
      mode="tags"
      allowClear
      open={false}
      suffixIcon={null}
      tokenSeparators={[',', ' ']}
      value={value ?? []}
      onChange={(v) => onChange?.(v)}
      placeholder={placeholder}
    />
  );
}

/** The deal type; programmatic guaranteed is sold at a fixed price, so choosing it sets `at` = 3. */
export function DealTypeSelect({ id, value, onChange }: PickerProps<string | undefined>) {
  const { t } = useTranslation();
  const form = Form.useFormInstance();
  return (
    <Select<string>
      id={id}
      value={value}
      onChange={(v) => {
        onChange?.(v);
        if (v === 'pg') form.setFieldValue('auction_type', FIXED_PRICE);
      }}
      options={DEAL_TYPES.map((type) => ({ value: type, label: t(`deal.type.${type}`) }))}
    />
  );
}

export function AuctionTypeSelect({ id, value, onChange }: PickerProps<number | undefined>) {
  const { t } = useTranslation();
  return (
    <Select<number>
      id={id}
      value={value}
      onChange={(v) => onChange?.(v)}
      options={AUCTION_TYPES.map((at) => ({ value: at, label: `${at} · ${t(`deal.auction_type.${at}`)}` }))}
    />
  );
}
