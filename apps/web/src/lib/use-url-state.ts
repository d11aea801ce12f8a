/**
 * A screen's state in the URL's query: the current parameters and `update`, which sets the given
 * ones (null or '' removes one) and keeps the others, replacing the history entry so that typing
 * in a filter does not fill the back button.
 */
import { useSearchParams } from 'react-router';

export function useUrlState(): [URLSearchParams, (patch: Record<string, string | null>) => void] {
  const [params, setParams] = useSearchParams();
  const update = (patch: Record<string, string | null>) =>
    setParams(
      (prev) => {
        const next = new URLSearchParams(prev);
        for (const [k, v] of Object.entries(patch)) {
          if (v === null || v === '') next.delete(k);
          else next.set(k, v);
        }
        return next;
      },
      { replace: true },
    );
  return [params, update];
}
