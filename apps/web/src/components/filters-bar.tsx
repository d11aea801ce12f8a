/**
 * The filter bar of a list: a search applied as one types (debounced) or on Enter (none for a list
 * the API does not search), the list's other filters (`children`: `FilterSelect`s, or other inputs
 * given the `bo-filter` classes for their widths) and "Clear filters" while any is on. On a phone the
 * bar folds behind a button naming how many filters are on, so the rows come first. The caller
 * writes each change to its view (the URL).
 */
import { FilterOutlined } from '@ant-design/icons';
import { Button, Input, Select } from 'antd';
import { useEffect, useState, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { useDebouncedValue } from '../lib/use-debounced-value.ts';
import { useViewport } from '../lib/use-viewport.ts';
import './data-views.css';

interface SearchProps {
  /** The applied search. */
  search: string;
  onSearch: (search: string) => void;
  /** The search box's placeholder and accessible name. */
  searchLabel: string;
  searchMaxLength?: number;
}

export type FiltersBarProps = {
  /** How many filters are on (the phone's button). */
  count: number;
  /** Whether "Clear filters" shows. */
  filtered: boolean;
  onClear: () => void;
  /** Other filters, after the search. */
  children?: ReactNode;
  /** Extra class of the bar (e.g. to set `--bo-filter-width` and `--bo-filter-search-width`). */
  className?: string;
  /**
   * Prefix of the ids: `<testId>-filters` (the bar's id and test id), `<testId>-filters-toggle`,
   * `<testId>-search`, `<testId>-clear-filters`.
   */
  testId: string;
} & (SearchProps | { [K in keyof SearchProps]?: undefined });

function SearchBox({
  search,
  onSearch,
  searchLabel,
  searchMaxLength = 200,
  testId,
}: SearchProps & { testId: string }) {
  const [text, setText] = useState(search);
  const debounced = useDebouncedValue(text, 400);
  useEffect(() => setText(search), [search]);
  useEffect(() => {
    if (debounced.trim() !== search) onSearch(debounced.trim());
    // eslint-disable-next-line react-hooks/exhaustive-deps -- only typing applies the search
  }, [debounced]);
  return (
    <Input.Search
      allowClear
      className="bo-filter bo-filter--search"
      placeholder={searchLabel}
      aria-label={searchLabel}
      value={text}
      onChange={(e) => setText(e.target.value)}
      onSearch={(v) => onSearch(v.trim())}
      maxLength={searchMaxLength}
      data-testid={`${testId}-search`}
    />
  );
}

export function FiltersBar(props: FiltersBarProps) {
  const { count, filtered, onClear, children, className, testId } = props;
  const { t } = useTranslation();
  const { isMobile } = useViewport();
  const [open, setOpen] = useState(false);

  return (
    <>
      {isMobile ? (
        <Button
          block
          icon={<FilterOutlined />}
          onClick={() => setOpen((o) => !o)}
          aria-expanded={open}
          aria-controls={`${testId}-filters`}
          className="bo-filters-toggle"
          data-testid={`${testId}-filters-toggle`}
        >
          {t('resource.filters', { count })}
        </Button>
      ) : null}
      <div
        className={className ? `bo-filters ${className}` : 'bo-filters'}
        id={`${testId}-filters`}
        data-testid={`${testId}-filters`}
        hidden={isMobile && !open}
      >
        {props.onSearch ? (
          <SearchBox
            search={props.search}
            onSearch={props.onSearch}
            searchLabel={props.searchLabel}
            searchMaxLength={props.searchMaxLength}
            testId={testId}
          />
        ) : null}
        {children}
        {filtered ? (
          <Button type="link" onClick={onClear} data-testid={`${testId}-clear-filters`}>
            {t('resource.filters.clear')}
          </Button>
        ) : null}
      </div>
    </>
  );
}

export type FilterSelectProps<V extends string> = {
  /** The placeholder and accessible name. */
  label: string;
  options: { value: V; label: string }[];
  /** Narrower (a currency, a product). */
  small?: boolean;
  testId: string;
} & (
  | { multiple: true; value: V[]; onChange: (value: V[]) => void }
  | { multiple?: false; value: V | ''; onChange: (value: V | '') => void }
);

/** A filter of the bar: several values (`multiple`, as tags that fold) or one ('' for none). */
export function FilterSelect<V extends string>(props: FilterSelectProps<V>) {
  const common = {
    allowClear: true,
    className: props.small ? 'bo-filter bo-filter--small' : 'bo-filter',
    placeholder: props.label,
    'aria-label': props.label,
    options: props.options,
    'data-testid': props.testId,
  };
  return props.multiple ? (
    <Select<V[]>
      mode="multiple"
      maxTagCount="responsive"
      {...common}
      value={props.value}
      onChange={props.onChange}
    />
  ) : (
    <Select<V> {...common} value={props.value || undefined} onChange={(v) => props.onChange(v ?? '')} />
  );
}
