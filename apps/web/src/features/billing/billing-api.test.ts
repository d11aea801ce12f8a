import type { BillingRowDto } from '@backoffice/core/billing-api';
import { describe, expect, it } from 'vitest';
import { isFiltered, lastMonth, listQuery, readView, viewPatch } from './billing-api.ts';
import { changePct } from './performance-overview-page.tsx';
import { previewMargin } from './row-edit-form.tsx';

const TABS = ['rows', 'netting', 'reconciliation'] as const;

describe('billing view in the URL', () => {
  it('reads a link, falling back to defaults for what does not parse', () => {
    const v = readView(
      new URLSearchParams(
        'month=2026-10&q=Nimbus&counterparty=3,x,5&state=open,confirmed&sort=-margin_pct&page=2&size=100&tab=netting&row=605',
      ),
      TABS,
    );
    expect(v).toMatchObject({
      month: '2026-10',
      search: 'Nimbus',
      counterparty: [3, 5],
      state: ['open', 'confirmed'],
      sort: '-margin_pct',
      page: 2,
      pageSize: 100,
      tab: 'netting',
      row: 605,
    });
    const d = readView(new URLSearchParams('month=2026-13&sort=-nope&page=0&size=7&tab=netting'), [
      'rows',
      'reconciliation',
    ]);
    expect(d).toMatchObject({
      month: lastMonth(),
      sort: '-revenue_gross',
      page: 1,
      pageSize: 50,
      tab: 'rows',
      row: null,
    });
  });

  it('writes only what differs from the defaults', () => {
    expect(
      viewPatch({ sort: '-revenue_gross', page: 1, pageSize: 50, tab: 'rows', state: [], row: null }),
    ).toEqual({
      sort: null,
      page: null,
      size: null,
      tab: null,
      state: null,
      row: null,
    });
    expect(viewPatch({ search: 'Kappa', badge: ['no_paid', 'some_paid'], page: 3 })).toEqual({
      q: 'Kappa',
      badge: 'no_paid,some_paid',
      page: '3',
    });
  });

  it('asks the API for the filters as comma lists', () => {
    const v = readView(new URLSearchParams('month=2026-10&state=open&counterparty=3'), TABS);
    expect(listQuery('advertiser', v)).toEqual({
      kind: 'advertiser',
      month: '2026-10',
      sort: '-revenue_gross',
      page: 1,
      page_size: 50,
      state: 'open',
      counterparty: '3',
    });
    expect(isFiltered(v)).toBe(true);
    expect(isFiltered(readView(new URLSearchParams('month=2026-10'), TABS))).toBe(false);
  });

  it('last month rolls over the year', () => {
    expect(lastMonth(Date.UTC(2027, 0, 15))).toBe('2026-12');
  });
});

describe('billing helpers', () => {
  it('previews the margin a typed figure leaves, exactly', () => {
    const row = { kind: 'advertiser', revenue_ours: '1000', other_side: '850' } as BillingRowDto;
    expect(previewMargin(row, '')).toEqual({ pct: '15.00', low: true });
    expect(previewMargin(row, '1250')).toEqual({ pct: '32.00', low: false });
    expect(previewMargin(row, '12,5')).toBeNull();
    const supply = { kind: 'supply', revenue_ours: '700', other_side: '1000' } as BillingRowDto;
    expect(previewMargin(supply, '850')).toEqual({ pct: '15.00', low: true });
  });

  it('changes against the previous month in percent', () => {
    expect(changePct('150', '100')).toBe('50.00');
    expect(changePct('80', '100')).toBe('-20.00');
    expect(changePct('100', '100')).toBe('0.00');
    expect(changePct('100', '0')).toBeNull();
  });
});
