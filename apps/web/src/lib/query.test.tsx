import { QueryClientProvider } from '@tanstack/react-query';
import { act, renderHook, waitFor } from '@testing-library/react';
import type { ReactNode } from 'react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { FetchError } from './fetch-client.ts';
import { apiQueryKey, createQueryClient, useApiMutation, useApiQuery } from './query.ts';
import { initialSession, useSession } from './session-store.ts';

function wrapper() {
  const client = createQueryClient();
  return ({ children }: { children: ReactNode }) => <QueryClientProvider client={client}>{children}</QueryClientProvider>;
}

const json = (body: unknown, status = 200) => new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });

let fetchMock: ReturnType<typeof vi.fn>;
beforeEach(() => {
  localStorage.clear();
  useSession.setState({ ...initialSession(), locale: 'es' });
  fetchMock = vi.fn();
  vi.stubGlobal('fetch', fetchMock);
});
afterEach(() => {
  vi.unstubAllGlobals();
});

describe('TanStack Query over the fetch client', () => {
  it('keys queries by path, parameters and filters', () => {
    expect(apiQueryKey('firewall/entries', { query: { page: 1 } })).toEqual(['api', 'firewall/entries', null, { page: 1 }]);
  });

  it('GETs through the client with the session token and language, returning data', async () => {
    useSession.setState({ user: { id: 1, mail: 'a@adtech.example', name: 'A', token: 'tok', roles: [], acl: {}, exp: 2e9, picture: null, simulated_by: null } });
    fetchMock.mockResolvedValue(json({ status: 'success', message: 'ok', data: { ip_origin: '10.0.0.1' } }));
    const { result } = renderHook(() => useApiQuery<{ ip_origin: string }>('firewall/ip'), { wrapper: wrapper() });
    await waitFor(() => expect(result.current.isSuccess).toBe(true));
    expect(result.current.data).toEqual({ ip_origin: '10.0.0.1' });
    const [url, init] = fetchMock.mock.calls[0] as [string, RequestInit];
    expect(url).toBe('/v1/firewall/ip');
    expect((init.headers as Record<string, string>).Authorization).toBe('Bearer tok');
    expect((init.headers as Record<string, string>)['Accept-Language']).toBe('es');
  });

  it('skips a null path and does not retry 4xx answers', async () => {
    const skipped = renderHook(() => useApiQuery('x', {}, { enabled: false }), { wrapper: wrapper() });
    const nothing = renderHook(() => useApiQuery(null), { wrapper: wrapper() });
    expect(skipped.result.current.fetchStatus).toBe('idle');
    expect(nothing.result.current.fetchStatus).toBe('idle');
    fetchMock.mockResolvedValue(json({ status: 'error', message: 'error.not_found', data: null }, 404));
    const { result } = renderHook(() => useApiQuery('reports/:id', { params: { id: 9 } }), { wrapper: wrapper() });
    await waitFor(() => expect(result.current.isError).toBe(true));
    expect(result.current.error).toBeInstanceOf(FetchError);
    expect(result.current.error?.key).toBe('error.not_found');
    expect(fetchMock).toHaveBeenCalledTimes(1);
    expect(fetchMock.mock.calls[0]?.[0]).toBe('/v1/reports/9');
  });

  it('posts mutation variables as the JSON body', async () => {
    fetchMock.mockResolvedValue(json({ status: 'success', message: 'ok', data: { update_db_ip: 'OK', update_firewall_ip: 'OK' } }));
    const { result } = renderHook(() => useApiMutation<{ ip: string; type: string }, unknown>('firewall/ip'), { wrapper: wrapper() });
    await act(async () => {
      await result.current.mutateAsync({ ip: '10.0.0.1', type: 'HOUR_1' });
    });
    const [, init] = fetchMock.mock.calls[0] as [string, RequestInit];
    expect(init.method).toBe('POST');
    expect(init.body).toBe('{"ip":"10.0.0.1","type":"HOUR_1"}');
  });
});
