/**
 * Autocomplete (spec sections 7 and 9): after at least 2 typed characters and a 750 ms pause,
 * calls `url` with the text under the search parameter named by `field` and `limit` (default
 * 10). A newer search cancels the older request (its AbortSignal is aborted and a late answer
 * is ignored). On error a failure toast appears and the suggestions are emptied.
 *
 * The caller supplies the `fetcher` (usually the app's fetch client), so this component does
 * not know about tokens or base URLs. The value is the chosen `{id, value}` option (or a list
 * of them with `multiple`), so the label can be shown without another call.
 */
import {
  AUTOCOMPLETE_DEBOUNCE_MS,
  AUTOCOMPLETE_DEFAULT_LIMIT,
  autocompleteQuery,
  shouldAutocomplete,
  type SelectOption,
} from '@backoffice/core/inputs';
import { Select, Spin } from 'antd';
import { useEffect, useRef, useState, type CSSProperties, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { useNotice } from './use-notice.ts';

export type AutocompleteFetcher = (
  url: string,
  query: Record<string, string>,
  signal: AbortSignal,
) => Promise<readonly SelectOption[]>;

interface AutocompleteBaseProps {
  /** Endpoint to call (relative paths are resolved by the fetcher). */
  url: string;
  /** Name of the query parameter that carries the typed text. */
  field: string;
  limit?: number;
  fetcher: AutocompleteFetcher;
  placeholder?: string;
  disabled?: boolean;
  allowClear?: boolean;
  status?: 'error' | 'warning';
  size?: 'small' | 'middle' | 'large';
  id?: string;
  className?: string;
  style?: CSSProperties;
  'aria-label'?: string;
}

export interface AutocompleteSingleProps extends AutocompleteBaseProps {
  multiple?: false;
  value?: SelectOption | null;
  onChange?: (value: SelectOption | null) => void;
}

export interface AutocompleteMultipleProps extends AutocompleteBaseProps {
  multiple: true;
  value?: SelectOption[];
  onChange?: (value: SelectOption[]) => void;
  maxCount?: number;
}

export type AutocompleteInputProps = AutocompleteSingleProps | AutocompleteMultipleProps;

interface Labelled {
  value: string | number;
  label?: ReactNode;
}

const toLabelled = (o: SelectOption): Labelled => ({ value: o.id, label: o.value });
const fromLabelled = (o: Labelled): SelectOption => ({
  id: o.value,
  value: typeof o.label === 'string' || typeof o.label === 'number' ? String(o.label) : String(o.value),
});

/** Debounced, cancellable suggestions for the typed text. */
export function useAutocompleteSuggestions(
  url: string,
  field: string,
  limit: number,
  fetcher: AutocompleteFetcher,
) {
  const { t } = useTranslation();
  const notice = useNotice();
  const [options, setOptions] = useState<readonly SelectOption[]>([]);
  const [loading, setLoading] = useState(false);
  const [text, setText] = useState('');
  const timer = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);
  const inFlight = useRef<AbortController | null>(null);

  useEffect(
    () => () => {
      clearTimeout(timer.current);
      inFlight.current?.abort();
    },
    [],
  );

  const search = (typed: string) => {
    setText(typed);
    clearTimeout(timer.current);
    inFlight.current?.abort();
    inFlight.current = null;
    if (!shouldAutocomplete(typed)) {
      setOptions([]);
      setLoading(false);
      return;
    }
    setLoading(true);
    timer.current = setTimeout(() => {
      const controller = new AbortController();
      inFlight.current = controller;
      fetcher(url, autocompleteQuery(field, typed, limit), controller.signal)
        .then((list) => {
          if (!controller.signal.aborted) setOptions(list.slice(0, limit));
        })
        .catch(() => {
          if (controller.signal.aborted) return;
          setOptions([]);
          void notice.error(t('inputs.autocomplete.failed'));
        })
        .finally(() => {
          if (inFlight.current === controller) {
            inFlight.current = null;
            setLoading(false);
          }
        });
    }, AUTOCOMPLETE_DEBOUNCE_MS);
  };

  return { options, loading, text, search };
}

export function AutocompleteInput(props: AutocompleteInputProps) {
  const { url, field, limit = AUTOCOMPLETE_DEFAULT_LIMIT, fetcher, placeholder, allowClear = true } = props;
  const { t } = useTranslation();
  const { options, loading, text, search } = useAutocompleteSuggestions(url, field, limit, fetcher);

  const notFound = loading ? (
    <span>
      <Spin size="small" /> {t('inputs.autocomplete.searching')}
    </span>
  ) : shouldAutocomplete(text) ? (
    t('inputs.autocomplete.no_results')
  ) : (
    t('inputs.autocomplete.placeholder')
  );

  const common = {
    id: props.id,
    className: props.className,
    style: { minWidth: 200, ...props.style },
    size: props.size,
    status: props.status,
    disabled: props.disabled,
    'aria-label': props['aria-label'],
    allowClear,
    labelInValue: true as const,
    placeholder: placeholder ?? t('inputs.autocomplete.placeholder'),
    showSearch: { filterOption: false, onSearch: search },
    options: loading ? [] : options.map(toLabelled),
    notFoundContent: notFound,
    suffixIcon: loading ? <Spin size="small" /> : undefined,
    onOpenChange: (open: boolean) => {
      if (!open) search('');
    },
  };

  if (props.multiple) {
    return (
      <Select<Labelled[]>
        {...common}
        mode="multiple"
        maxCount={props.maxCount}
        value={props.value?.map(toLabelled)}
        onChange={(next) => props.onChange?.((next ?? []).map(fromLabelled))}
      />
    );
  }
  return (
    <Select<Labelled | null>
      {...common}
      value={props.value ? toLabelled(props.value) : null}
      onChange={(next) => props.onChange?.(next ? fromLabelled(next) : null)}
    />
  );
}
