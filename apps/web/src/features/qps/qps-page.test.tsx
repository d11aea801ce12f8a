import { QueryClientProvider } from '@tanstack/react-query';
import { render, screen, waitFor, within } from '@testing-library/react';
import { createMemoryRouter, RouterProvider } from 'react-router';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { setTestLanguage } from '../../../test/i18n.ts';
import { createQueryClient } from '../../lib/query.ts';
import { initialSession, useSession } from '../../lib/session-store.ts';
import QpsPage from './qps-page.tsx';

// The chart itself is ECharts (tested in the browser); here the page around it.
vi.mock('../../components/echart.tsx', () => ({
  EChart: ({ ariaLabel, testId }: { ariaLabel: string; testId?: string }) => <div role="img" aria-label={ariaLabel} data-testid={testId} />,
}));

const json = (body: unknown, status = 200) => new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });

const graph = {
  graph: 'demand',
  interval: 60,
  timezone: 'Europe/Madrid',
  start: '2025-03-31T22:00:00.000Z',
  end: '2025-04-01T22:00:00.000Z',
  metrics: ['qps'],
  series: [
    {
      id: 1,
      name: 'Nimbus Exchange',
      current_cap: 3600,
      points: [
        { t: '2025-04-01T10:00:00.000Z', cap: 21000, qps: 15000 },
        { t: '2025-04-01T12:00:00.000Z', cap: 3600, qps: 3600 },
      ],
    },
  ],
  annotations: [
    {
      t: '2025-04-01T11:58:00.000Z',
      entity_id: 1,
      entity_name: 'Nimbus Exchange',
      action: 'update',
      message: 'qps.annotation.cap_change',
      params: { from: 21000, to: 3600 },
      actor: { id: 5, name: 'Priya Natarajan' },
    },
  ],
};

let fetchMock: ReturnType<typeof vi.fn>;
beforeEach(() => {
  useSession.setState({ ...initialSession(), locale: 'en' });
  fetchMock = vi.fn(async (url: string) => {
    if (url.includes('/entities')) return json({ status: 'success', message: 'ok', data: [{ id: 1, value: 'Nimbus Exchange' }] });
    if (url.includes('/v1/graphs/qps/demand')) return json({ status: 'success', message: 'ok', data: graph });
    return json({ status: 'error', message: 'error.not_found', data: null }, 404);
  });
  vi.stubGlobal('fetch', fetchMock);
});
afterEach(() => {
  vi.unstubAllGlobals();
});

function open(path: string) {
  const router = createMemoryRouter([{ path: '/:lang/graphs/qps/:graph', element: <QpsPage /> }], { initialEntries: [path] });
  render(
    <QueryClientProvider client={createQueryClient()}>
      <RouterProvider router={router} />
    </QueryClientProvider>,
  );
  return router;
}

const calls = () => fetchMock.mock.calls.map((c) => decodeURIComponent(String(c[0])));

describe('QPS page', () => {
  it('draws a shared link: resolves the partner names, asks for the graph and lists the change', async () => {
    open('/en/graphs/qps/demand?ids=1&metrics=qps&start=2025-04-01T00:00&end=2025-04-02T00:00&tz=Europe/Madrid&interval=60');
    expect(screen.getByRole('heading', { level: 1, name: 'QPS by demand partner' })).toBeTruthy();
    const change = await screen.findByTestId('qps-change');
    expect(change.textContent).toBe('2025-04-01 13:58Nimbus ExchangeQPS cap 21,000 → 3,600 by Priya Natarajan');
    expect(calls()).toContain('/v1/graphs/qps/demand/entities?ids=1&limit=10');
    expect(calls()).toContain('/v1/graphs/qps/demand?start=2025-04-01 00:00&end=2025-04-02 00:00&timezone=Europe/Madrid&interval=60&metrics=qps&ids=1');
    expect(within(screen.getByTestId('qps-summary')).getByTestId('qps-cap-1').textContent).toBe('3,600');
    expect(screen.getByTestId('qps-dataviewer').getAttribute('href')).toBe(
      '/en/reports/dataviewer?start=2025-04-01&end=2025-04-01&tz=Europe/Madrid&dims=hour,demand_partner&metrics=revenue,bid_requests,bids,timeouts,errors&f=demand_partner:include:1&run=1',
    );
    await waitFor(() => expect(screen.getByTestId('qps-form').textContent).toContain('Nimbus Exchange'));
  });

  it('shows the broken rules of a link in Spanish and asks nothing', async () => {
    await setTestLanguage('es');
    open('/es/graphs/qps/demand?ids=&metrics=&start=2025-04-01T00:00&end=2099-01-01T00:00&tz=UTC&interval=10');
    expect(screen.getByTestId('qps-error-metrics').textContent).toBe('Elige al menos una métrica');
    expect(screen.getByTestId('qps-error-ids').textContent).toBe('Elige al menos un socio o endpoint (máximo 10)');
    expect(screen.getByTestId('qps-error-interval').textContent).toBe('El intervalo debe ser de al menos 15 minutos');
    expect(screen.getByTestId('qps-error-end').textContent).toBe('Una gráfica puede abarcar como máximo 31 días');
    expect(fetchMock).not.toHaveBeenCalled();
  });

  it('starts empty with the defaults and no call; an unknown graph is a not-found state', async () => {
    const router = open('/en/graphs/qps/supply');
    expect(screen.getByTestId('qps-empty').textContent).toContain('Choose one or more supply endpoints');
    expect(screen.getByRole('checkbox', { name: 'Outgoing QPS' })).toHaveProperty('checked', true);
    expect(screen.getByRole('checkbox', { name: 'Bid QPS' })).toHaveProperty('checked', true);
    expect(screen.getByRole('checkbox', { name: 'Timeouts/s' })).toHaveProperty('checked', false);
    expect(fetchMock).not.toHaveBeenCalled();
    await router.navigate('/en/graphs/qps/publishers');
    expect((await screen.findByTestId('qps-not-found')).textContent).toContain('There is no such graph');
  });
});
