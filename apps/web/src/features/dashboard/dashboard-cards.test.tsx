import { render, screen, within } from '@testing-library/react';
import { MemoryRouter } from 'react-router';
import { describe, expect, it } from 'vitest';
import { setTestLanguage } from '../../../test/i18n.ts';
import { DashboardTileCard } from './dashboard-tiles.tsx';
import { DashboardTop } from './dashboard-top.tsx';

const revenue = { key: 'revenue' as const, label: 'dashboard.tile.revenue', today: '81234.120000', yesterday: '90211.500000', last_week: '0.000000', vs_yesterday: -0.0995, vs_last_week: null };

describe('dashboard cards', () => {
  it('shows a tile with today, the comparisons and deltas that do not rely on colour alone', () => {
    render(<DashboardTileCard tile={revenue} currency="USD" locale="en" />);
    const card = screen.getByTestId('tile-revenue');
    expect(within(card).getByRole('heading', { name: 'Revenue' })).toBeTruthy();
    expect(within(card).getByTestId('tile-today').textContent).toBe('$81,234.12');
    expect(within(card).getByTestId('tile-yesterday').textContent).toBe('$90,211.50');
    // Screen readers read the whole change; the chip shows the arrow and the signed figure.
    const down = within(card).getByText('vs yesterday: down \u221210.0%').closest('.bo-dash-delta')!;
    expect(down.getAttribute('data-direction')).toBe('down');
    expect(down.querySelector(':scope > span:not(.anticon):not(.bo-visually-hidden)')!.textContent).toBe('\u221210.0%');
    expect(down.querySelector('.anticon-arrow-down')).not.toBeNull();
    expect(within(card).getByText('vs last week: nothing to compare with').closest('.bo-dash-delta')!.querySelector(':scope > span:not(.anticon):not(.bo-visually-hidden)')!.textContent).toBe('—');
  });

  it('speaks Spanish, margin % in percentage points', async () => {
    await setTestLanguage('es');
    const tile = { key: 'margin_pct' as const, label: 'dashboard.tile.margin_pct', today: '0.253412', yesterday: '0.241000', last_week: '0.260000', vs_yesterday: 0.0515, vs_last_week: -0.0253 };
    render(<DashboardTileCard tile={tile} currency="USD" locale="es" />);
    const card = screen.getByTestId('tile-margin_pct');
    expect(within(card).getByTestId('tile-today').textContent).toBe('25,34\u00a0%');
    expect(within(card).getByText('frente a ayer: sube +1,2 puntos porcentuales')).toBeTruthy();
    expect(within(card).getByText('frente a la semana pasada: baja \u22120,7 puntos porcentuales')).toBeTruthy();
  });

  it('links top rows to the DataViewer only when the person may open it, money columns only with money', () => {
    const rows = [{ demand_partner: 'Nimbus Exchange', demand_partner_id: 3, revenue: '1234.5', impressions: 1000000, ecpm: '1.2345' }];
    const link = { lang: 'en', from: '2025-03-27', asOf: '2025-04-02T10:00:00.000Z', timezone: 'UTC' };
    const { unmount } = render(
      <MemoryRouter>
        <DashboardTop kind="demand_partner" title="Top" rows={rows} money currency="USD" locale="en" link={link} />
      </MemoryRouter>,
    );
    const a = screen.getByRole('link', { name: 'Nimbus Exchange' });
    expect(a.getAttribute('href')).toBe('/en/reports/dataviewer?start=2025-03-27&end=2025-04-02&tz=UTC&dims=day&metrics=revenue,impressions,ecpm&f=demand_partner:include:3&run=1');
    expect(screen.getAllByRole('columnheader').map((h) => h.textContent)).toEqual(['Demand partner', 'Revenue', 'Impressions', 'eCPM']);
    expect(screen.getByRole('row', { name: /Nimbus/ }).textContent).toContain('$1,234.50');
    unmount();
    render(
      <MemoryRouter>
        <DashboardTop kind="demand_partner" title="Top" rows={[{ demand_partner: 'Nimbus Exchange', demand_partner_id: 3, impressions: 5 }]} money={false} currency="USD" locale="en" link={null} />
      </MemoryRouter>,
    );
    expect(screen.queryByRole('link')).toBeNull();
    expect(screen.getAllByRole('columnheader').map((h) => h.textContent)).toEqual(['Demand partner', 'Impressions']);
  });
});
