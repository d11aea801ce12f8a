/**
 * Multi-select with a maximum item count (spec sections 3 and 5). Options are `{id, value}`
 * (value is the label shown); the component's value is the list of chosen ids. Searching
 * filters by label.
 */
import type { SelectOption } from '@backoffice/core/inputs';
import { Select } from 'antd';
import { useState, type CSSProperties, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';

export interface MultiSelectProps<Id extends string | number = string | number> {
  options: readonly SelectOption<Id>[];
  value?: Id[];
  defaultValue?: Id[];
  onChange?: (value: Id[]) => void;
  /** Maximum number of items; further options are disabled once it is reached. */
  maxCount?: number;
  placeholder?: string;
  loading?: boolean;
  disabled?: boolean;
  allowClear?: boolean;
  status?: 'error' | 'warning';
  size?: 'small' | 'middle' | 'large';
  notFoundContent?: ReactNode;
  id?: string;
  className?: string;
  style?: CSSProperties;
  'aria-label'?: string;
}

export function MultiSelect<Id extends string | number = string | number>(props: MultiSelectProps<Id>) {
  const { options, value, defaultValue, onChange, maxCount, placeholder, allowClear = true, ...rest } = props;
  const { t } = useTranslation();
  const [inner, setInner] = useState<Id[]>(defaultValue ?? []);
  const current = value ?? inner;
  const hint = maxCount !== undefined ? t('inputs.multi_select.max_hint', { max: maxCount }) : undefined;
  return (
    <Select<Id[], { value: Id; label: string }>
      mode="multiple"
      id={rest.id}
      className={rest.className}
      style={{ minWidth: 200, ...rest.style }}
      size={rest.size}
      status={rest.status}
      loading={rest.loading}
      disabled={rest.disabled}
      aria-label={rest['aria-label']}
      title={hint}
      allowClear={allowClear}
      maxCount={maxCount}
      maxTagCount="responsive"
      placeholder={
        placeholder ??
        (hint ? `${t('inputs.multi_select.placeholder')} (${hint})` : t('inputs.multi_select.placeholder'))
      }
      notFoundContent={rest.notFoundContent}
      options={options.map((o) => ({ value: o.id, label: o.value }))}
      showSearch={{ optionFilterProp: 'label' }}
      // How many of the allowed items are taken, where the arrow would be.
      suffixIcon={
        maxCount !== undefined ? (
          <span aria-hidden style={{ fontSize: 12, fontVariantNumeric: 'tabular-nums' }}>
            {current.length}/{maxCount}
          </span>
        ) : undefined
      }
      value={current}
      onChange={(ids) => {
        const next = ids.slice(0, maxCount ?? ids.length);
        if (value === undefined) setInner(next);
        onChange?.(next);
      }}
    />
  );
}
