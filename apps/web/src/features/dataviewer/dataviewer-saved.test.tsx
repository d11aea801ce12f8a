import { QueryClientProvider } from '@tanstack/react-query';
import { fireEvent, render, screen, waitFor } from '@testing-library/react';
import { createMemoryRouter, RouterProvider } from 'react-router';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { createQueryClient } from '../../lib/query.ts';
import { initialSession, useSession } from '../../lib/session-store.ts';
import { SavedDrawer } from './dataviewer-saved.tsx';

const json = (body: unknown, status = 200) => new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });

const item = (id: number, name: string, owner: string) => ({
  id,
  name,
  owner_id: id + 100,
  owner_id_label: owner,
  owner: { id: id + 100, name: owner },
  shared_roles: [],
  shared_role_ids: [],
  created_at: '2025-03-01T10:00:00.000Z',
  updated_at: '2025-03-02T10:00:00.000Z',
  can_edit: true,
});

let fetchMock: ReturnType<typeof vi.fn>;
/** The resource layer's list: `page(query)` answers the page for the request's query string. */
function serve(page: (query: URLSearchParams) => { items: unknown[]; total: number }) {
  fetchMock = vi.fn(async (url: string) => {
    const u = new URL(url, 'http://localhost');
    if (u.pathname === '/v1/reports/dataviewers') {
      const p = page(u.searchParams);
      return json({ status: 'success', message: 'ok', data: { ...p, page: 1, page_size: 200 } });
    }
    return json({ status: 'error', message: 'error.not_found', data: null }, 404);
  });
  vi.stubGlobal('fetch', fetchMock);
}

beforeEach(() => useSession.setState({ ...initialSession(), locale: 'en' }));
afterEach(() => vi.unstubAllGlobals());

function open() {
  const router = createMemoryRouter([{ path: '*', element: <SavedDrawer open onClose={() => {}} lang="en" currentId={null} /> }], { initialEntries: ['/en/reports/dataviewer'] });
  render(
    <QueryClientProvider client={createQueryClient()}>
      <RouterProvider router={router} />
    </QueryClientProvider>,
  );
}

const names = () => screen.queryAllByTestId('dv-saved-link').map((a) => a.textContent);
const listCalls = () => fetchMock.mock.calls.map((c) => decodeURIComponent(String(c[0]))).filter((u) => u.includes('/v1/reports/dataviewers'));

describe('saved DataViewers drawer', () => {
  it('reads the layer\'s list (200 by name) and searches it by name or owner without asking again', async () => {
    serve(() => ({ items: [item(1, 'Spain by partner', 'Lucía Fernández'), item(2, 'Weekly revenue', 'Ana Ruiz')], total: 2 }));
    open();
    await waitFor(() => expect(names()).toEqual(['Spain by partner', 'Weekly revenue']));
    expect(listCalls()).toEqual(['/v1/reports/dataviewers?page_size=200']);
    fireEvent.change(screen.getByLabelText('Search by name or owner'), { target: { value: 'ana' } });
    await waitFor(() => expect(names()).toEqual(['Weekly revenue']));
    await new Promise((r) => setTimeout(r, 300));
    expect(listCalls()).toHaveLength(1);
    expect(screen.queryByTestId('dv-saved-truncated')).toBeNull();
  });

  it('says when there are more than a page holds, and then asks the server for the names searched', async () => {
    const first = Array.from({ length: 200 }, (_, i) => item(i + 1, `Report ${String(i).padStart(3, '0')}`, 'Lucía Fernández'));
    serve((q) => (q.get('f[name]') === 'zeta' ? { items: [item(999, 'Zeta by country', 'Ana Ruiz')], total: 1 } : { items: first, total: 250 }));
    open();
    expect((await screen.findByTestId('dv-saved-truncated')).textContent).toBe('200 of 250 rows loaded');
    fireEvent.change(screen.getByLabelText('Search by name or owner'), { target: { value: 'zeta' } });
    await waitFor(() => expect(names()).toEqual(['Zeta by country']));
    expect(listCalls()).toContain('/v1/reports/dataviewers?page_size=200&f[name]=zeta');
  });
});
