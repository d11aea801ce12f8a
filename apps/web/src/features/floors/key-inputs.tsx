/**
 * The nine keys of a floor rule as inputs, shared by the rule form and the tester: publisher and
 * demand partner picked by name (the floors' own autocomplete), country, device, media type and
 * size from lists (a size can be typed), site, ad unit and deal as text. Empty means "any" (`*`).
 */
import { FLOOR_KEYS, type FloorKey } from '@backoffice/core/floors';
import { COUNTRIES, DEVICES, FORMATS, SIZES } from '@backoffice/core/reports';
import { AutoComplete, Form, Input, Select } from 'antd';
import { useTranslation } from 'react-i18next';
import { ReferenceSelect } from '../../resources/reference-select.tsx';

export type KeyValues = Partial<Record<FloorKey, string | number | null>>;

/** Form values → the API's keys (ids as text, empty as `*`). */
export function keysOut(values: KeyValues): Record<FloorKey, string> {
  return Object.fromEntries(
    FLOOR_KEYS.map((k) => {
      const v = values[k];
      return [k, v === null || v === undefined || String(v).trim() === '' ? '*' : String(v).trim()];
    }),
  ) as Record<FloorKey, string>;
}

/** A rule's keys → form values (ids as numbers for the pickers, `*` as empty). */
export function keysIn(keys: Record<FloorKey, string>): KeyValues {
  return Object.fromEntries(
    FLOOR_KEYS.map((k) => {
      const v = keys[k];
      if (v === '*') return [k, k === 'publisher' || k === 'demand_partner' ? null : ''];
      return [k, k === 'publisher' || k === 'demand_partner' ? Number(v) : v];
    }),
  ) as KeyValues;
}

const list = (values: readonly string[]) => values.map((v) => ({ value: v, label: v }));

/** One Form.Item per key; `prefix` nests them (`['keys', key]`). */
export function KeyInputs({ prefix, errors }: { prefix?: string; errors?: Record<string, string> }) {
  const { t } = useTranslation();
  const any = t('floors.any');
  const name = (k: FloorKey) => (prefix ? [prefix, k] : k);
  const error = (k: FloorKey) => {
    const key = errors?.[`keys.${k}`] ?? errors?.[k];
    return key ? { validateStatus: 'error' as const, help: t(key) } : {};
  };
  const input = (k: FloorKey) => {
    switch (k) {
      case 'publisher':
        return (
          <ReferenceSelect
            resource="publishers"
            path="floors/autocomplete/publishers"
            placeholder={t('floors.placeholder.publisher')}
            aria-label={t('floors.key.publisher')}
          />
        );
      case 'demand_partner':
        return (
          <ReferenceSelect
            resource="demand_partners"
            path="floors/autocomplete/demand-partners"
            placeholder={t('floors.placeholder.demand_partner')}
            aria-label={t('floors.key.demand_partner')}
          />
        );
      case 'country':
        return (
          <Select
            allowClear
            showSearch
            placeholder={any}
            options={list(COUNTRIES)}
            aria-label={t('floors.key.country')}
          />
        );
      case 'device':
        return (
          <Select allowClear placeholder={any} options={list(DEVICES)} aria-label={t('floors.key.device')} />
        );
      case 'media_type':
        return (
          <Select
            allowClear
            placeholder={any}
            options={list(FORMATS)}
            aria-label={t('floors.key.media_type')}
          />
        );
      case 'size':
        return (
          <AutoComplete
            allowClear
            placeholder={any}
            options={list(SIZES)}
            aria-label={t('floors.key.size')}
            filterOption={(input, o) => String(o?.value ?? '').includes(input.toLowerCase())}
          />
        );
      default:
        return (
          <Input
            allowClear
            placeholder={`${any} · ${t(`floors.placeholder.${k}`)}`}
            aria-label={t(`floors.key.${k}`)}
            maxLength={200}
          />
        );
    }
  };
  return (
    <div className="bo-floors-keys">
      {FLOOR_KEYS.map((k) => (
        <Form.Item
          key={k}
          name={name(k)}
          label={t(`floors.key.${k}`)}
          {...error(k)}
          data-testid={`floor-key-${k}`}
        >
          {input(k)}
        </Form.Item>
      ))}
    </div>
  );
}
