/**
 * A screen's view in the URL, changed through a function that always starts from the current
 * URL. React Router's setter merges into the parameters of the render it was made in, and antd's
 * table can keep a cell (a row's "open" button) from an earlier render: a click there would drop
 * what changed since (a search typed a moment before). So the setter and the view are read
 * through refs that follow every render.
 */
import { useLayoutEffect, useMemo, useRef } from 'react';
import { useUrlState } from '../../lib/use-url-state.ts';

export function useUrlView<V>(
  read: (p: URLSearchParams) => V,
  write: (patch: Partial<V>) => Record<string, string | null>,
): [V, (patch: Partial<V> | ((view: V) => Partial<V>)) => void] {
  const [params, update] = useUrlState();
  const view = useMemo(() => read(params), [params, read]);
  const latest = useRef({ update, view });
  useLayoutEffect(() => {
    latest.current = { update, view };
  });
  const apply = useMemo(
    () => (patch: Partial<V> | ((view: V) => Partial<V>)) => {
      const { update: set, view: current } = latest.current;
      set(write(typeof patch === 'function' ? patch(current) : patch));
    },
    [write],
  );
  return [view, apply];
}
