/**
 * The Home screen's rules, kept pure for tests: the API answer's shape, what the person may see
 * (the API's flags and, while an ADMIN simulates a role, that role's ACL), deltas as text with a
 * direction, DataViewer links of the top lists, which "waiting" rows and links to show, the
 * shortcuts of people without a report area, and the greeting.
 */
import { formatNumber, toDecimalString } from '@backoffice/core/format';
import { buildMenuTree, entryPath, filterMenu, flattenMenu, isPathAllowed, type MenuEntry } from '@backoffice/core/menu';
import type { ReportRow } from '@backoffice/core/reports';
import { localDateOf } from '@backoffice/core/time-zones';
import { MENU_GROUPS, MENU_ROUTES } from '@backoffice/core/routes';
import { hasMoneyArea, hasReportArea, type DashboardViewer } from '@backoffice/core/dashboard';

/** The person the screen is for (the session's roles and ACL; a simulated role's while simulating). */
export type Person = DashboardViewer;

// ------------------------------------------------------------------------------------ answer

export type TileKey = 'revenue' | 'cost' | 'margin' | 'margin_pct' | 'impressions' | 'ecpm';
export const TILE_KEYS: readonly TileKey[] = ['revenue', 'cost', 'margin', 'margin_pct', 'impressions', 'ecpm'];
export const MONEY_TILES: ReadonlySet<TileKey> = new Set(['revenue', 'cost', 'margin', 'margin_pct', 'ecpm']);

export interface DashboardTile {
  key: TileKey;
  label: string;
  today: string | number | null;
  yesterday: string | number | null;
  last_week: string | number | null;
  /** Relative change (0.1 = +10 %), null when the base is 0 or missing. */
  vs_yesterday: number | null;
  vs_last_week: number | null;
}

export interface TimeWindow {
  start: string;
  end: string;
}

export interface SeriesRow {
  day: string;
  revenue?: string;
  margin?: string;
  impressions?: number;
}

export interface WaitingEntry {
  kind: 'firewall_expiring' | 'payouts' | 'discrepancies' | 'scheduler_failures' | (string & {});
  label: string;
  link: string;
  count: number;
  items: { id: number; ip?: string; expires_at?: string }[];
}

export interface DashboardAnswer {
  timezone: string;
  as_of: string;
  data: TimeWindow | null;
  money_visible: boolean;
  reports_visible: boolean;
  currency: string;
  tiles?: { windows: Record<'today' | 'yesterday' | 'last_week', TimeWindow>; tiles: DashboardTile[] } | null;
  series?: SeriesRow[] | null;
  top?: { from: string; partners: ReportRow[]; publishers: ReportRow[] } | null;
  waiting?: WaitingEntry[];
}

// ------------------------------------------------------------------------------- visibility

export interface Visibility {
  reports: boolean;
  money: boolean;
}

/**
 * What the screen shows: what the API answered, narrowed by the session's ACL (an ADMIN
 * simulating a role calls the API with the ADMIN's token; the screen shows what the role would see).
 */
export function visibility(answer: Pick<DashboardAnswer, 'reports_visible' | 'money_visible'>, person: Person | null): Visibility {
  const reports = answer.reports_visible && hasReportArea(person);
  return { reports, money: reports && answer.money_visible && hasMoneyArea(person) };
}

/** The tiles to draw, in the screen's order: money tiles only when money is visible. */
export function visibleTiles(tiles: readonly DashboardTile[], money: boolean): DashboardTile[] {
  const byKey = new Map(tiles.map((t) => [t.key, t]));
  return TILE_KEYS.filter((k) => money || !MONEY_TILES.has(k))
    .map((k) => byKey.get(k))
    .filter((t): t is DashboardTile => t !== undefined);
}

// ----------------------------------------------------------------------------------- deltas

export type Direction = 'up' | 'down' | 'flat';
/** Whether a change is good news: revenue up is, cost up is neither (it grows with traffic). */
export type Tone = 'good' | 'bad' | 'neutral';

export interface Delta {
  direction: Direction;
  tone: Tone;
  /** Signed text: `+12.3 %`, `−4.1 %`, `+1.2 pp`; null when there is nothing to compare with. */
  text: string | null;
  unit: 'percent' | 'points';
}

const MINUS = '\u2212';
const NBSP = '\u00a0';

/** Moves the decimal point of a decimal string `places` to the right, exactly ('0.0995', 2 -> '9.95'). */
export function shiftDecimal(value: string, places: number): string {
  const m = /^(-?)(\d+)(?:\.(\d*))?$/.exec(value);
  if (!m) throw new RangeError(`Not a decimal string: ${value}`);
  const frac = (m[3] ?? '').padEnd(places, '0');
  const int = `${m[2]}${frac.slice(0, places)}`.replace(/^0+(?=\d)/, '');
  const rest = frac.slice(places);
  return `${m[1]}${int}${rest ? `.${rest}` : ''}`;
}

/** A fraction as 6-decimal micro-units (exact for the API's decimal strings). */
function toMicros(value: string | number): bigint | null {
  const text = toDecimalString(value);
  if (text === null) return null;
  const m = /^(-?)(\d+)(?:\.(\d*))?$/.exec(text);
  if (!m) return null;
  const frac = (m[3] ?? '').padEnd(6, '0').slice(0, 6);
  const v = BigInt(`${m[2]}${frac}`);
  return m[1] === '-' ? -v : v;
}

function signed(number: string, direction: Direction): string {
  const unsigned = number.replace(/^-/, '');
  if (direction === 'up') return `+${unsigned}`;
  if (direction === 'down') return `${MINUS}${unsigned}`;
  return unsigned;
}

function toneOf(key: TileKey, direction: Direction): Tone {
  if (direction === 'flat' || key === 'cost') return 'neutral';
  return direction === 'up' ? 'good' : 'bad';
}

/** Percent sign as each language writes it: `12.3%`, `12,3 %`. */
export function percentSuffix(locale: string): string {
  return locale.startsWith('es') ? `${NBSP}%` : '%';
}

/**
 * The change of a tile against a comparison value: a relative change for figures (from the
 * API's `vs_*`, 1 decimal), the difference in percentage points for margin %.
 */
export function tileDelta(
  key: TileKey,
  today: string | number | null,
  base: string | number | null,
  relative: number | null,
  locale: string,
): Delta {
  if (key === 'margin_pct') {
    const a = today === null ? null : toMicros(today);
    const b = base === null ? null : toMicros(base);
    if (a === null || b === null) return { direction: 'flat', tone: 'neutral', text: null, unit: 'points' };
    // Fractions in micro-units: x 100 for points, so the difference in points is (a - b) / 10^4.
    const diff = a - b;
    const negative = diff < 0n;
    const abs = negative ? -diff : diff;
    const points = `${negative ? '-' : ''}${abs / 10_000n}.${String(abs % 10_000n).padStart(4, '0')}`;
    const text = formatNumber(points, locale, 1);
    const shown = text.replace(/^-/, '');
    const direction: Direction = /^[0.,]+$/.test(shown) ? 'flat' : negative ? 'down' : 'up';
    return { direction, tone: toneOf(key, direction), text: `${signed(text, direction)}${NBSP}${locale.startsWith('es') ? 'p.p.' : 'pp'}`, unit: 'points' };
  }
  if (relative === null || !Number.isFinite(relative)) return { direction: 'flat', tone: 'neutral', text: null, unit: 'percent' };
  const percent = shiftDecimal(toDecimalString(relative) ?? '0', 2);
  const text = formatNumber(percent, locale, 1);
  const shown = text.replace(/^-/, '');
  const direction: Direction = /^[0.,]+$/.test(shown) ? 'flat' : text.startsWith('-') ? 'down' : 'up';
  return { direction, tone: toneOf(key, direction), text: `${signed(text, direction)}${percentSuffix(locale)}`, unit: 'percent' };
}

// ------------------------------------------------------------------------------------ dates

/**
 * How far the figures go, for the line under the greeting ('as_of' is the end of the last whole
 * hour with data):
 * - 'today': up to an hour of today ("Today until 14:00");
 * - 'yesterday': up to today's midnight, seen in the day's first hour, when the tiles compare
 *   whole days (the API's rule) ("Yesterday, the whole day");
 * - 'until': the data stops earlier (a late load): the exact instant ("Data until 20 Nov 16:00").
 */
export function asOfKind(asOfMs: number, nowMs: number, tz: string): 'today' | 'yesterday' | 'until' {
  const today = localDateOf(nowMs, tz);
  if (localDateOf(asOfMs - 1, tz) === today) return 'today';
  // as_of is in today and the instant before it is not: as_of is today's midnight.
  if (localDateOf(asOfMs, tz) === today && nowMs - asOfMs < 3_600_000) return 'yesterday';
  return 'until';
}

/** Zones offered by the selector: the browser's first, then the company's usual ones. */
export const COMMON_TIME_ZONES = ['UTC', 'Europe/Madrid', 'Europe/London', 'America/New_York', 'America/Los_Angeles', 'America/Mexico_City', 'America/Sao_Paulo', 'Asia/Kolkata', 'Asia/Tokyo'] as const;

export function timeZoneChoices(browser: string): string[] {
  return [...new Set([browser, ...COMMON_TIME_ZONES])];
}

export type DayPart = 'morning' | 'afternoon' | 'evening';

/** Morning from 5 to 12, afternoon to 20, evening otherwise. */
export function dayPart(hour: number): DayPart {
  if (hour >= 5 && hour < 12) return 'morning';
  if (hour >= 12 && hour < 20) return 'afternoon';
  return 'evening';
}

/** The first name of a full name ('Carmen Ortega' -> 'Carmen'); the whole when it has one word. */
export function firstName(name: string | null | undefined): string {
  return (name ?? '').trim().split(/\s+/)[0] ?? '';
}

// ------------------------------------------------------------------------------------ links

/** Keeps `/`, `,` and `:` readable in query values (they are legal there) and encodes the rest. */
function queryValue(value: string): string {
  return encodeURIComponent(value).replace(/%2F/gi, '/').replace(/%2C/gi, ',').replace(/%3A/gi, ':');
}

export interface DataViewerLinkInput {
  lang: string;
  start: string;
  end: string;
  timezone: string;
  dimensions: readonly string[];
  metrics: readonly string[];
  filters: readonly { dimension: string; op: 'include' | 'exclude'; values: readonly (string | number)[] }[];
}

/**
 * A DataViewer URL that opens prefilled and runs (the DataViewer's URL contract):
 * `/{lang}/reports/dataviewer?start=…&end=…&tz=…&dims=…&metrics=…&f=dim:include:1,2&run=1`.
 */
export function dataViewerHref(input: DataViewerLinkInput): string {
  const parts = [
    `start=${queryValue(input.start)}`,
    `end=${queryValue(input.end)}`,
    `tz=${queryValue(input.timezone)}`,
    `dims=${queryValue(input.dimensions.join(','))}`,
    `metrics=${queryValue(input.metrics.join(','))}`,
    ...input.filters.map((f) => `f=${queryValue(`${f.dimension}:${f.op}:${f.values.join(',')}`)}`),
    'run=1',
  ];
  return `/${input.lang}/reports/dataviewer?${parts.join('&')}`;
}

export type TopKind = 'demand_partner' | 'publisher';

/**
 * The DataViewer link of a top-list row: the same 7 days (top.from to the local day of as_of),
 * by day, filtered on that partner or publisher; null without an id.
 */
export function topRowHref(
  kind: TopKind,
  row: ReportRow,
  ctx: { lang: string; from: string; asOf: string; timezone: string; money: boolean },
): string | null {
  const id = row[`${kind}_id`];
  if (id === null || id === undefined || id === '') return null;
  // as_of is an exclusive end (an hour boundary): the last day is the day of the instant before.
  const end = localDateOf(Date.parse(ctx.asOf) - 1, ctx.timezone);
  return dataViewerHref({
    lang: ctx.lang,
    start: ctx.from,
    end: end < ctx.from ? ctx.from : end,
    timezone: ctx.timezone,
    dimensions: ['day'],
    metrics: ctx.money ? ['revenue', 'impressions', 'ecpm'] : ['impressions'],
    filters: [{ dimension: kind, op: 'include', values: [id] }],
  });
}

// ----------------------------------------------------------------------------- menu & areas

/** The route table's menu (core/routes) as entries: the fallback while the API's menu loads. */
export function catalogueMenu(): MenuEntry[] {
  const groups = MENU_GROUPS.map((g, i) => ({ id: -(i + 1), id_parent: null, title: `menu.${g.id}`, icon: g.icon, prefix: '', slug: '', permission: '', hidden: false, order: i }));
  const groupId = new Map(MENU_GROUPS.map((g, i) => [g.id, -(i + 1)]));
  const leaves = MENU_ROUTES.map((r, i) => ({
    id: i + 1,
    id_parent: r.group ? (groupId.get(r.group) ?? null) : null,
    title: `menu.${r.id}`,
    icon: r.icon,
    prefix: r.prefix,
    slug: r.slug,
    permission: r.permission,
    hidden: r.hidden ?? false,
    order: i,
  }));
  return [...groups, ...leaves];
}

/** The menu entries the person can see, flat (the API's menu when loaded, else the route table's). */
export function visibleEntries(menus: readonly MenuEntry[] | null, person: Person | null): MenuEntry[] {
  const flat = menus ? flattenMenu(menus) : catalogueMenu();
  return filterMenu(flat, { roles: person?.roles ?? [], acl: person?.acl ?? {} });
}

/** May the person open this app path (the shell's route guard)? */
export function canOpen(path: string, entries: readonly MenuEntry[], person: Person | null): boolean {
  if (!person) return false;
  return isPathAllowed(path, entries, person);
}

export interface WaitingRow {
  kind: string;
  label: string;
  count: number;
  /** App path (without the locale) when the person may open it. */
  link: string | null;
  items: WaitingEntry['items'];
}

/**
 * The "waiting for you" rows: every kind with something waiting, plus the calm zero rows of the
 * areas the person works in (a link they may open); never a link they may not open.
 */
export function waitingRows(waiting: readonly WaitingEntry[], entries: readonly MenuEntry[], person: Person | null): WaitingRow[] {
  const rows: WaitingRow[] = [];
  for (const w of waiting) {
    const allowed = canOpen(w.link, entries, person);
    if (w.count === 0 && (!allowed || w.kind === 'firewall_expiring')) continue;
    rows.push({ kind: w.kind, label: w.label, count: w.count, link: allowed ? w.link : null, items: w.items });
  }
  return rows;
}

export interface ShortcutGroup {
  key: string;
  title: string;
  icon: string;
  links: { key: string; title: string; path: string }[];
}

/** The person's areas as shortcut groups (menu groups with their screens; the dashboard left out). */
export function shortcutGroups(entries: readonly MenuEntry[]): ShortcutGroup[] {
  const tree = buildMenuTree(entries);
  const groups: ShortcutGroup[] = [];
  for (const node of tree) {
    const leaves = flattenMenu(node.children ?? []).filter((e) => !entries.some((c) => c.id_parent === e.id));
    if (leaves.length > 0) {
      groups.push({
        key: `group-${node.id}`,
        title: node.title,
        icon: node.icon,
        links: leaves.map((l) => ({ key: `entry-${l.id}`, title: l.title, path: entryPath(l) })),
      });
    } else if (entryPath(node) !== '/' && node.slug) {
      groups.push({ key: `entry-${node.id}`, title: node.title, icon: node.icon, links: [{ key: `entry-${node.id}`, title: node.title, path: entryPath(node) }] });
    }
  }
  return groups;
}
