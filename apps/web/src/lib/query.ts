/**
 * TanStack Query over the app's fetch client: queries keyed by path, parameters and filters;
 * mutations that post through the same client. No retries for 4xx answers.
 */
import type { QueryParams } from '@backoffice/core/query-string';
import { QueryClient, useMutation, useQuery, type UseQueryOptions } from '@tanstack/react-query';
import { api } from './api.ts';
import { FetchError, type HttpMethod, type RequestOptions } from './fetch-client.ts';

export function createQueryClient(): QueryClient {
  return new QueryClient({
    defaultOptions: {
      queries: {
        staleTime: 30_000,
        refetchOnWindowFocus: false,
        retry: (count, error) => {
          if (error instanceof FetchError && error.httpStatus >= 400 && error.httpStatus < 500) return false;
          return count < 2;
        },
      },
      mutations: { retry: false },
    },
  });
}

export interface ApiQueryInput {
  params?: Record<string, string | number>;
  query?: QueryParams;
}

export function apiQueryKey(path: string, input: ApiQueryInput = {}): readonly unknown[] {
  return ['api', path, input.params ?? null, input.query ?? null];
}

/** GET `path` through the fetch client; `enabled: false` or a null path skips it. */
export function useApiQuery<T>(
  path: string | null,
  input: ApiQueryInput = {},
  options: Omit<UseQueryOptions<T, FetchError>, 'queryKey' | 'queryFn'> = {},
) {
  return useQuery<T, FetchError>({
    queryKey: apiQueryKey(path ?? '', input),
    queryFn: ({ signal }) => api.request<T>(path ?? '', { ...input, signal }),
    ...options,
    enabled: path !== null && (options.enabled ?? true),
  });
}

/** A mutation that sends its variables as the body of `method path`. */
export function useApiMutation<TBody, T>(path: string, method: HttpMethod = 'POST', extra: Omit<RequestOptions, 'body' | 'method'> = {}) {
  return useMutation<T, FetchError, TBody>({
    mutationFn: (body) => api.request<T>(path, { ...extra, method, body }),
  });
}
