/**
 * The offer and campaign forms' own inputs: amounts that warn (not refuse) when the payout is above
 * the revenue, caps whose unit follows the cap type (clearing them when "no cap" is chosen), the
 * targeting lists with "all" as their empty reading, the campaign's offer picked among its
 * advertiser's offers, and a URL input that shows the URL with example values as one types (an
 * unknown macro flagged at once). Rules and keys are core's (resources/offers.ts, postback.ts).
 */
import { WarningOutlined } from '@ant-design/icons';
import {
  macroUrlProblem,
  MACRO_EXAMPLE_VALUES,
  macrosIn,
  resolveMacros,
  unknownMacros,
} from '@backoffice/core/postback';
import { CAP_TYPES, payoutAboveRevenue, type CapType } from '@backoffice/core/resources/offers';
import { useQuery } from '@tanstack/react-query';
import { Form, Input, InputNumber, Select, Typography } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useLocale } from '../../components/use-locale.ts';
import { api } from '../../lib/api.ts';
import { useDebouncedValue } from '../../lib/use-debounced-value.ts';
import { optionLabel } from '../../resources/resource-cells.tsx';
import type { FieldMeta } from '@backoffice/core/resources/define';

interface ControlProps<V> {
  id?: string;
  value?: V;
  onChange?: (value: V) => void;
}

/** An amount per conversion; on the payout, a warning (the save still goes) when it is above the revenue. */
export function AmountInput({
  id,
  value,
  onChange,
  warnAgainst,
}: ControlProps<string | null> & { warnAgainst?: string }) {
  const { t } = useTranslation();
  const other = Form.useWatch<string | number | null | undefined>(warnAgainst ?? '__none__');
  const warn = warnAgainst !== undefined && payoutAboveRevenue(value ?? '', other ?? '');
  return (
    <>
      <InputNumber<string>
        id={id}
        value={value ?? null}
        onChange={(v) => onChange?.(v ?? null)}
        min="0"
        stringMode
        style={{ width: '100%' }}
        status={warn ? 'warning' : undefined}
        aria-describedby={warn ? `${id}-warning` : undefined}
      />
      {warn ? (
        <Typography.Text
          id={`${id}-warning`}
          className="bo-camp-warning"
          role="status"
          data-testid="payout-warning"
        >
          <WarningOutlined className="bo-camp-warning__icon" /> {t('offer.payout_above_revenue')}
        </Typography.Text>
      ) : null}
    </>
  );
}

/** How the caps count; choosing "no cap" clears them. */
export function CapTypeSelect({ id, value, onChange }: ControlProps<CapType | undefined>) {
  const { t } = useTranslation();
  const form = Form.useFormInstance();
  return (
    <Select<CapType>
      id={id}
      value={value}
      onChange={(v) => {
        onChange?.(v);
        if (v === 'none') form.setFieldsValue({ daily_cap: null, total_cap: null });
      }}
      options={CAP_TYPES.map((c) => ({ value: c, label: t(`offer.cap_type.${c}`) }))}
    />
  );
}

/** A cap in the cap type's unit (conversions, or the currency); off while there is no cap. */
export function CapInput({ id, value, onChange }: ControlProps<string | null>) {
  const { t } = useTranslation();
  const type = Form.useWatch<CapType | undefined>('cap_type');
  const currency = Form.useWatch<string | undefined>('currency');
  const unit =
    type === 'conversions'
      ? t('offer.cap_unit.conversions')
      : type === 'budget'
        ? (currency ?? 'USD')
        : undefined;
  return (
    <InputNumber<string>
      id={id}
      value={value ?? null}
      onChange={(v) => onChange?.(v ?? null)}
      min="0"
      stringMode
      precision={type === 'conversions' ? 0 : undefined}
      disabled={type === 'none'}
      suffix={unit}
      style={{ width: '100%' }}
    />
  );
}

/** A targeting list of a warehouse's list (countries, platforms, devices): empty reads "all". */
export function TargetSelect({
  id,
  value,
  onChange,
  meta,
  placeholder,
}: ControlProps<string[]> & { meta: FieldMeta; placeholder: string }) {
  const locale = useLocale();
  return (
    <Select<string[]>
      id={id}
      mode="multiple"
      allowClear
      maxTagCount="responsive"
      showSearch={{ optionFilterProp: 'label' }}
      value={value ?? []}
      onChange={(v) => onChange?.(v)}
      placeholder={placeholder}
      options={(meta.options ?? []).map((o) => ({ value: o, label: optionLabel(meta, o, locale) }))}
    />
  );
}

interface OfferOption {
  id: number;
  value: string;
  advertiser_id: number;
}

/** The campaign's offer, among the chosen advertiser's offers (all advertisers' before one is chosen). */
export function OfferPicker({ id, value, onChange }: ControlProps<number | null>) {
  const { t } = useTranslation();
  const advertiser = Form.useWatch<number | null | undefined>('advertiser_id');
  const [search, setSearch] = useState('');
  const term = useDebouncedValue(search.trim(), 300);
  const query = {
    ...(term ? { name: term } : {}),
    ...(typeof advertiser === 'number' ? { advertiser_id: String(advertiser) } : {}),
    limit: 50,
  };
  const found = useQuery<OfferOption[]>({
    queryKey: ['api', 'campaigns', 'offers', query],
    queryFn: ({ signal }) => api.request<OfferOption[]>('campaigns/offers', { query, signal }),
    staleTime: 60_000,
  });
  const current = useQuery<OfferOption[]>({
    queryKey: ['api', 'campaigns', 'offers', 'ids', value],
    queryFn: ({ signal }) =>
      api.request<OfferOption[]>('campaigns/offers', { query: { ids: String(value) }, signal }),
    enabled: typeof value === 'number',
    staleTime: 60_000,
  });
  const options = new Map<number, string>();
  for (const o of current.data ?? []) options.set(o.id, o.value);
  for (const o of found.data ?? []) options.set(o.id, o.value);
  return (
    <Select<number>
      id={id}
      showSearch={{ filterOption: false, onSearch: setSearch }}
      allowClear
      value={value ?? undefined}
      onChange={(v) => onChange?.(v ?? null)}
      onBlur={() => setSearch('')}
      loading={found.isFetching}
      placeholder={t('campaign.offer_placeholder')}
      notFoundContent={
        found.isFetching ? t('inputs.autocomplete.searching') : t('inputs.autocomplete.no_results')
      }
      options={[...options].map(([v, label]) => ({ value: v, label }))}
      data-testid="campaign-offer-picker"
    />
  );
}

/** A URL with macros, and below it the URL with example values when it has some (or the unknown ones). */
export function MacroUrlInput({
  id,
  value,
  onChange,
  help,
}: ControlProps<string | null> & { help?: string }) {
  const { t } = useTranslation();
  const text = value ?? '';
  const unknown = unknownMacros(text);
  const problem = text.trim() === '' ? null : macroUrlProblem(text);
  return (
    <>
      <Input
        id={id}
        value={text}
        onChange={(e) => onChange?.(e.target.value)}
        type="url"
        autoComplete="off"
        spellCheck={false}
        inputMode="url"
      />
      <div className="bo-camp-url-help" role="status" aria-live="polite">
        {help ? <Typography.Text type="secondary">{help}</Typography.Text> : null}
        {unknown.length > 0 ? (
          <Typography.Text className="bo-camp-warning">
            <WarningOutlined className="bo-camp-warning__icon" />{' '}
            {t('campaign.macros.unknown', { list: unknown.join(', ') })}
          </Typography.Text>
        ) : text.trim() !== '' && problem === null && macrosIn(text).length > 0 ? (
          <Typography.Text type="secondary" className="bo-camp-url-example">
            {t('offer.url_example', { url: resolveMacros(text.trim(), MACRO_EXAMPLE_VALUES) })}
          </Typography.Text>
        ) : null}
      </div>
    </>
  );
}
