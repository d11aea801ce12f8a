/**
 * A resource list's query kept in the URL (page, page size, sort, filters), so a link reproduces
 * the view. Parsed with the same rules as the API (list-query.ts); what does not parse is dropped.
 */
import type { ResourceDef } from '@backoffice/core/resources/define';
import { listQueryParams, parseListQuery, type Filter, type ListQuery } from '@backoffice/core/resources/list-query';
import { useMemo } from 'react';
import { useSearchParams } from 'react-router';

export function useListQuery(def: ResourceDef) {
  const [search, setSearch] = useSearchParams();
  const query = useMemo<ListQuery>(() => {
    const raw = Object.fromEntries(search.entries());
    const parsed = parseListQuery(def, raw);
    if (parsed.ok) return parsed.value;
    // Keep the parameters that parse on their own.
    const kept = Object.fromEntries(Object.entries(raw).filter(([k, v]) => parseListQuery(def, { [k]: v }).ok));
    const retry = parseListQuery(def, kept);
    return retry.ok ? retry.value : { page: 1, page_size: 25, sort: [], filters: [] };
  }, [def, search]);

  const apply = (next: ListQuery) => setSearch(listQueryParams(next, def), { replace: false });

  return {
    query,
    setPage: (page: number, page_size: number) => apply({ ...query, page: page_size !== query.page_size ? 1 : page, page_size }),
    setSort: (sort: ListQuery['sort']) => apply({ ...query, sort, page: 1 }),
    /** Sets (or clears, with null) one field's filter; back to the first page. */
    setFilter: (field: string, filter: Filter | null) =>
      apply({ ...query, page: 1, filters: [...query.filters.filter((f) => f.field !== field), ...(filter ? [filter] : [])] }),
    clearFilters: () => apply({ ...query, page: 1, filters: [] }),
  };
}

/**
 * Fixed values of a screen (a partner list's side) as the list's filters: the URL's own filters on
 * those fields give way to them. Each is an `in` filter of one value (or `eq` for a field that
 * filters by equality).
 */
export function withFixed(def: ResourceDef, query: ListQuery, fixed: Record<string, string> | undefined): ListQuery {
  if (!fixed) return query;
  const extra: Filter[] = Object.entries(fixed).map(([field, value]) =>
    def.fields[field]?.filter === 'eq' ? { field, kind: 'eq', value } : { field, kind: 'in', values: [value] },
  );
  return { ...query, filters: [...query.filters.filter((f) => !(f.field in fixed)), ...extra] };
}
