import { describe, expect, it } from 'vitest';
import {
  asOfKind,
  canOpen,
  dataViewerHref,
  dayPart,
  firstName,
  shiftDecimal,
  shortcutGroups,
  tileDelta,
  timeZoneChoices,
  topRowHref,
  visibility,
  visibleEntries,
  visibleTiles,
  waitingRows,
  type DashboardTile,
  type Person,
  type WaitingEntry,
} from './dashboard-model.ts';
import { sectionsFor } from './dashboard-access.ts';
import { formatFraction, formatTileValue } from './dashboard-format.ts';

// ACLs shaped like the demo roles (apps/api/src/db/demo-data.ts).
const ADMIN: Person = { roles: [{ id: 1, name: 'ADMIN' }], acl: { '^/v1/.*$': ['*'] } };
const FINANCE: Person = {
  roles: [{ id: 2, name: 'FINANCE' }],
  acl: { '^/v1/(billing|invoices|payouts|prepayments)(/.*)?$': ['read', 'write', 'approve'], '/v1/finances': ['*'], '/v1/finance-reports': ['read'], '/v1/reports': ['read'], '/v1/firewall': ['read', 'write'] },
};
const GRAPHS_ONLY: Person = { roles: [{ id: 3, name: 'TECH_SUPPLY' }], acl: { '/v1/graphs': ['read'], '/v1/discrepancy': ['read'], '/v1/firewall': ['read', 'write'] } };
const SCHEDULER_VIEWER: Person = { roles: [{ id: 4, name: 'SCHEDULER_VIEWER' }], acl: { '/v1/scheduler-api': ['read'], scheduler: ['read'], '/v1/firewall': ['read', 'write'] } };
const MARKETING: Person = {
  roles: [{ id: 5, name: 'MARKETING' }],
  acl: { '/v1/creatives': ['*'], resources_manager: ['read', 'write'], '/v1/signatures': ['*'], '/v1/offers': ['read'], '/v1/firewall': ['read', 'write'] },
};
const NO_ROLE: Person = { roles: [], acl: {} };

const tile = (key: DashboardTile['key'], over: Partial<DashboardTile> = {}): DashboardTile => ({
  key,
  label: `dashboard.tile.${key}`,
  today: '1',
  yesterday: '1',
  last_week: '1',
  vs_yesterday: 0,
  vs_last_week: 0,
  ...over,
});

describe('deltas', () => {
  it('shifts decimal strings exactly', () => {
    expect(shiftDecimal('0.0995', 2)).toBe('9.95');
    expect(shiftDecimal('-0.0444', 2)).toBe('-4.44');
    expect(shiftDecimal('1.5', 2)).toBe('150');
    expect(shiftDecimal('0.00001', 2)).toBe('0.001');
  });

  it('shows a relative change with a sign, an arrow direction and a tone, in each language', () => {
    expect(tileDelta('revenue', '110', '100', 0.1, 'en')).toEqual({ direction: 'up', tone: 'good', text: '+10.0%', unit: 'percent' });
    expect(tileDelta('revenue', '90.5', '100', -0.0995, 'en')).toMatchObject({ direction: 'down', tone: 'bad', text: '\u221210.0%' });
    expect(tileDelta('impressions', 1044, 1000, 0.0444, 'es')).toMatchObject({ direction: 'up', text: '+4,4\u00a0%' });
    // Cost growing is neither good nor bad news (it follows traffic).
    expect(tileDelta('cost', '120', '100', 0.2, 'en')).toMatchObject({ direction: 'up', tone: 'neutral' });
    // Changes that round to zero are flat, not "up 0.0 %".
    expect(tileDelta('ecpm', '2', '2', 0.0004, 'en')).toMatchObject({ direction: 'flat', tone: 'neutral', text: '0.0%' });
  });

  it('has nothing to compare with when the base is zero or missing', () => {
    expect(tileDelta('revenue', '10', '0', null, 'en')).toEqual({ direction: 'flat', tone: 'neutral', text: null, unit: 'percent' });
    expect(tileDelta('margin_pct', '0.25', null, null, 'en').text).toBeNull();
  });

  it('gives the margin % change in percentage points, exactly', () => {
    expect(tileDelta('margin_pct', '0.253412', '0.241000', 0.0515, 'en')).toEqual({ direction: 'up', tone: 'good', text: '+1.2\u00a0pp', unit: 'points' });
    expect(tileDelta('margin_pct', '0.2', '0.2155', -0.07, 'es')).toMatchObject({ direction: 'down', tone: 'bad', text: '\u22121,6\u00a0p.p.' });
    expect(tileDelta('margin_pct', '0.2501', '0.25', 0.0004, 'en')).toMatchObject({ direction: 'flat', text: '0.0\u00a0pp' });
  });

  it('formats tile values: money from decimal strings, margin % as a percent, impressions as a count', () => {
    expect(formatTileValue('revenue', '81234.125000', 'USD', 'en')).toBe('$81,234.13');
    expect(formatTileValue('revenue', '81234.125000', 'USD', 'es')).toBe('81.234,13\u00a0$');
    expect(formatTileValue('margin_pct', '0.253412', 'USD', 'en')).toBe('25.34%');
    expect(formatTileValue('impressions', 12345678, 'USD', 'es')).toBe('12.345.678');
    expect(formatTileValue('ecpm', null, 'USD', 'en')).toBe('');
    expect(formatFraction('-0.05', 'es', 1)).toBe('-5,0\u00a0%');
  });
});

describe('what the person sees', () => {
  it('asks for figures only for people with a report area', () => {
    expect(sectionsFor(ADMIN)).toEqual(['tiles', 'series', 'top', 'waiting']);
    expect(sectionsFor(GRAPHS_ONLY)).toEqual(['tiles', 'series', 'top', 'waiting']);
    expect(sectionsFor(SCHEDULER_VIEWER)).toEqual(['waiting']);
    expect(sectionsFor(MARKETING)).toEqual(['waiting']);
    expect(sectionsFor(NO_ROLE)).toEqual(['waiting']);
  });

  it("follows the API's flags, narrowed by the session's ACL (a simulated role)", () => {
    expect(visibility({ reports_visible: true, money_visible: true }, FINANCE)).toEqual({ reports: true, money: true });
    expect(visibility({ reports_visible: true, money_visible: false }, ADMIN)).toEqual({ reports: true, money: false });
    // An ADMIN simulating a graphs-only role: the API (ADMIN token) sends money; the role may not see it.
    expect(visibility({ reports_visible: true, money_visible: true }, GRAPHS_ONLY)).toEqual({ reports: true, money: false });
    expect(visibility({ reports_visible: true, money_visible: true }, SCHEDULER_VIEWER)).toEqual({ reports: false, money: false });
  });

  it('shows the six tiles in order with money, impressions alone without', () => {
    const all = ['impressions', 'ecpm', 'revenue', 'cost', 'margin', 'margin_pct'].map((k) => tile(k as DashboardTile['key']));
    expect(visibleTiles(all, true).map((t) => t.key)).toEqual(['revenue', 'cost', 'margin', 'margin_pct', 'impressions', 'ecpm']);
    expect(visibleTiles(all, false).map((t) => t.key)).toEqual(['impressions']);
    expect(visibleTiles([tile('impressions')], true).map((t) => t.key)).toEqual(['impressions']);
  });

  it('greets by first name and part of the day', () => {
    expect(firstName('Carmen Ortega')).toBe('Carmen');
    expect(firstName('  Madonna ')).toBe('Madonna');
    expect(firstName(undefined)).toBe('');
    expect([4, 5, 11, 12, 19, 20].map(dayPart)).toEqual(['evening', 'morning', 'morning', 'afternoon', 'afternoon', 'evening']);
    expect(timeZoneChoices('Europe/Madrid')[0]).toBe('Europe/Madrid');
    expect(new Set(timeZoneChoices('Europe/Madrid')).size).toBe(timeZoneChoices('Europe/Madrid').length);
  });
});

describe('links', () => {
  it('builds the DataViewer URL of the contract', () => {
    expect(
      dataViewerHref({
        lang: 'en',
        start: '2025-03-27',
        end: '2025-04-02',
        timezone: 'Europe/Madrid',
        dimensions: ['day', 'country'],
        metrics: ['revenue', 'impressions', 'ecpm'],
        filters: [{ dimension: 'demand_partner', op: 'include', values: [3] }],
      }),
    ).toBe('/en/reports/dataviewer?start=2025-03-27&end=2025-04-02&tz=Europe/Madrid&dims=day,country&metrics=revenue,impressions,ecpm&f=demand_partner:include:3&run=1');
    expect(dataViewerHref({ lang: 'es', start: 'a', end: 'b', timezone: 'America/Argentina/Buenos_Aires', dimensions: ['day'], metrics: ['impressions'], filters: [] })).toBe(
      '/es/reports/dataviewer?start=a&end=b&tz=America/Argentina/Buenos_Aires&dims=day&metrics=impressions&run=1',
    );
  });

  it('links a top row to its partner or publisher over the same days', () => {
    const ctx = { lang: 'es', from: '2025-03-27', asOf: '2025-04-02T10:00:00.000Z', timezone: 'Europe/Madrid', money: true };
    expect(topRowHref('demand_partner', { demand_partner: 'Nimbus Exchange', demand_partner_id: 3 }, ctx)).toBe(
      '/es/reports/dataviewer?start=2025-03-27&end=2025-04-02&tz=Europe/Madrid&dims=day&metrics=revenue,impressions,ecpm&f=demand_partner:include:3&run=1',
    );
    // as_of at local midnight (22:00 UTC in Madrid summer time) ends the day before.
    expect(topRowHref('publisher', { publisher: 'El Diario', publisher_id: 12 }, { ...ctx, asOf: '2025-04-01T22:00:00.000Z', money: false })).toBe(
      '/es/reports/dataviewer?start=2025-03-27&end=2025-04-01&tz=Europe/Madrid&dims=day&metrics=impressions&f=publisher:include:12&run=1',
    );
    expect(topRowHref('publisher', { publisher: 'Unknown' }, ctx)).toBeNull();
  });

  const waiting: WaitingEntry[] = [
    { kind: 'firewall_expiring', label: 'dashboard.waiting.firewall_expiring', link: '/utils/ip', count: 0, items: [] },
    { kind: 'payouts', label: 'dashboard.waiting.payouts', link: '/billing_performance/publishers_reports', count: 0, items: [] },
    { kind: 'discrepancies', label: 'dashboard.waiting.discrepancies', link: '/process/discrepancy', count: 0, items: [] },
    { kind: 'scheduler_failures', label: 'dashboard.waiting.scheduler_failures', link: '/utils/scheduler', count: 0, items: [] },
  ];
  const rowsFor = (person: Person, list = waiting) => waitingRows(list, visibleEntries(null, person), person).map((r) => [r.kind, r.count, r.link]);

  it('lists the calm zero rows of the areas the person works in, with links they may open', () => {
    expect(rowsFor(ADMIN)).toEqual([
      ['payouts', 0, '/billing_performance/publishers_reports'],
      ['discrepancies', 0, '/process/discrepancy'],
      ['scheduler_failures', 0, '/utils/scheduler'],
    ]);
    expect(rowsFor(FINANCE)).toEqual([['payouts', 0, '/billing_performance/publishers_reports']]);
    expect(rowsFor(SCHEDULER_VIEWER)).toEqual([['scheduler_failures', 0, '/utils/scheduler']]);
    expect(rowsFor(MARKETING)).toEqual([]);
  });

  it('always lists what is waiting, without a link the person may not open', () => {
    const expiring = waiting.map((w) => (w.kind === 'firewall_expiring' ? { ...w, count: 1, items: [{ id: 4, ip: '203.0.113.9', expires_at: '2025-04-02T10:20:00.000Z' }] } : w));
    expect(rowsFor(MARKETING, expiring)).toEqual([['firewall_expiring', 1, '/utils/ip']]);
    expect(rowsFor(NO_ROLE, expiring)).toEqual([['firewall_expiring', 1, null]]);
  });

  it('gives people without a report area their areas as shortcuts (never the dashboard or a hidden entry)', () => {
    const groups = shortcutGroups(visibleEntries(null, MARKETING));
    expect(groups.map((g) => g.title)).toEqual(['menu.settings', 'menu.marketing', 'menu.offers']);
    expect(groups.find((g) => g.title === 'menu.marketing')?.links.map((l) => l.path)).toEqual([
      '/utils/info_creative_sizes',
      '/utils/creatives_resize_tool',
      '/utils/resources_manager2',
      '/utils/signature_manager',
    ]);
    expect(groups.find((g) => g.title === 'menu.settings')?.links.map((l) => l.path)).toEqual(['/utils/ip']);
    expect(shortcutGroups(visibleEntries(null, SCHEDULER_VIEWER)).flatMap((g) => g.links.map((l) => l.path))).toEqual(['/utils/scheduler', '/utils/ip']);
    expect(shortcutGroups(visibleEntries(null, NO_ROLE))).toEqual([]);
  });

  it('uses the API menu when loaded, the route table meanwhile', () => {
    const apiMenu = [
      { id: 1, id_parent: null, title: 'menu.dashboard', icon: 'DashboardOutlined', prefix: '', slug: '', permission: '', hidden: false },
      {
        id: 2,
        id_parent: null,
        title: 'menu.reports',
        icon: 'BarChartOutlined',
        prefix: '',
        slug: '',
        permission: '',
        hidden: false,
        children: [{ id: 3, id_parent: 2, title: 'menu.dataviewers', icon: 'TableOutlined', prefix: '/reports', slug: 'dataviewer', permission: '/v1/reports', hidden: false }],
      },
    ];
    expect(canOpen('/reports/dataviewer', visibleEntries(apiMenu, FINANCE), FINANCE)).toBe(true);
    expect(canOpen('/reports/dataviewer', visibleEntries(apiMenu, GRAPHS_ONLY), GRAPHS_ONLY)).toBe(false);
    expect(canOpen('/reports/dataviewer', visibleEntries(null, GRAPHS_ONLY), GRAPHS_ONLY)).toBe(false);
    expect(canOpen('/reports/dataviewer', visibleEntries(null, FINANCE), FINANCE)).toBe(true);
    expect(canOpen('/reports/dataviewer', [], null)).toBe(false);
  });
});

describe('how far the figures go (as of)', () => {
  const MADRID = 'Europe/Madrid';
  const at = (iso: string) => Date.parse(iso);
  it('says today until an hour of today', () => {
    // 14:00 Madrid (winter, UTC+1), seen at 14:20.
    expect(asOfKind(at('2026-11-21T13:00:00Z'), at('2026-11-21T13:20:00Z'), MADRID)).toBe('today');
    // The first hour after midnight is in: today until 01:00.
    expect(asOfKind(at('2026-11-22T00:00:00Z'), at('2026-11-22T00:30:00Z'), MADRID)).toBe('today');
  });
  it("says yesterday's whole day in the first hour of a day (the data reaches today's midnight)", () => {
    // Midnight in Madrid is 23:00 UTC the day before; seen at 00:11 Madrid.
    expect(asOfKind(at('2026-11-21T23:00:00Z'), at('2026-11-21T23:11:00Z'), MADRID)).toBe('yesterday');
    expect(asOfKind(at('2026-11-22T00:00:00Z'), at('2026-11-22T00:11:00Z'), 'UTC')).toBe('yesterday');
    // Summer time (UTC+2).
    expect(asOfKind(at('2026-07-01T22:00:00Z'), at('2026-07-01T22:59:00Z'), MADRID)).toBe('yesterday');
  });
  it('gives the exact instant when the data stops before that', () => {
    // Data up to yesterday 16:00, seen today.
    expect(asOfKind(at('2026-11-20T15:00:00Z'), at('2026-11-21T10:00:00Z'), MADRID)).toBe('until');
    // Data up to yesterday's midnight, seen after today's first hour: not "yesterday's whole day".
    expect(asOfKind(at('2026-11-20T23:00:00Z'), at('2026-11-21T10:00:00Z'), MADRID)).toBe('until');
  });
});
