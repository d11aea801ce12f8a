import { describe, expect, it } from 'vitest';
import {
  beyondTolerance,
  checkFigures,
  deltaPct,
  discrepancyDateError,
  discrepancyNetworksError,
  discrepancyRequestSchema,
  distribute,
  figuresFromTable,
  oneMonthBefore,
  parseRevenue,
  requestDays,
  splitAmount,
  toBasisPoints,
} from './discrepancy.ts';

const M = 1_000_000n;

describe('discrepancy rules', () => {
  it('dates: format, mandatory, not older than one month, not in the future', () => {
    expect(discrepancyDateError('', '2025-04-10')).toBe('discrepancy.date.required');
    expect(discrepancyDateError('2025/04/01', '2025-04-10')).toBe('discrepancy.date.format');
    expect(discrepancyDateError('2025-02-29', '2025-04-10')).toBe('discrepancy.date.format');
    expect(discrepancyDateError('2025-03-10', '2025-04-10')).toBeNull();
    expect(discrepancyDateError('2025-03-09', '2025-04-10')).toBe('discrepancy.date.too_old');
    expect(discrepancyDateError('2025-04-11', '2025-04-10')).toBe('discrepancy.date.future');
    expect(oneMonthBefore('2025-03-31')).toBe('2025-02-28');
    expect(oneMonthBefore('2024-03-31')).toBe('2024-02-29');
    expect(oneMonthBefore('2025-01-15')).toBe('2024-12-15');
  });

  it('networks: mandatory, none twice', () => {
    expect(discrepancyNetworksError([])).toBe('common.no_networks_added');
    expect(discrepancyNetworksError([3, 3])).toBe('discrepancy.networks.duplicate');
    expect(discrepancyNetworksError([3, 4])).toBeNull();
    const parsed = discrepancyRequestSchema.safeParse({ date: '2025-03-31', network_ids: [1, 1], source: 'typed', figures: [], idempotency_key: 'abcdefgh' });
    expect(parsed.success).toBe(false);
    expect(parsed.error!.issues.map((i) => i.message)).toContain('discrepancy.networks.duplicate');
  });

  it('covers the month to the date', () => {
    expect(requestDays('2025-03-03')).toEqual(['2025-03-01', '2025-03-02', '2025-03-03']);
    expect(requestDays('2025-02-28')).toHaveLength(28);
  });

  it('reads a CSV table by its header, dropping rows with an empty value', () => {
    const read = figuresFromTable([
      ['Date', 'Network', 'Impressions', 'Revenue'],
      ['2025-03-01', 'Acme', '10', '1.5'],
      ['2025-03-02', 'Acme', '', '1.5'],
      ['', '', '', ''],
    ]);
    expect(read).toEqual({ inputs: [{ line: 2, date: '2025-03-01', network: 'Acme', impressions: '10', revenue: '1.5' }], dropped: 1 });
    expect(figuresFromTable([['a', 'b'], ['1', '2']])).toBeNull();
    expect(parseRevenue('1234,5')).toBe('1234.500000');
    expect(parseRevenue('1.234,56')).toBeNull();
    const checked = checkFigures([{ date: '2025-03-01', network: 'acme', impressions: '10', revenue: '1.5' }, { date: '2025-03-01', network: '7', impressions: '1', revenue: '1' }], '2025-03-05', [{ id: 7, name: 'Acme' }]);
    expect(checked.figures).toHaveLength(1);
    expect(checked.errors).toEqual([{ line: 2, field: 'date', key: 'discrepancy.figures.duplicate' }]);
  });

  it('delta % and the tolerance edge, exactly', () => {
    const tol = toBasisPoints('10');
    expect(deltaPct(60n * M, 54n * M)).toBe('10.00');
    expect(beyondTolerance(60n * M, 54n * M, tol)).toBe(false);
    expect(beyondTolerance(60n * M, 54n * M - 1n, tol)).toBe(true);
    expect(beyondTolerance(60n * M, 66n * M, tol)).toBe(false);
    expect(beyondTolerance(60n * M, 66n * M + 1n, tol)).toBe(true);
    expect(deltaPct(3n, 4n)).toBe('-33.33');
    expect(deltaPct(0n, 0n)).toBe('0.00');
    expect(deltaPct(0n, 5n)).toBeNull();
    expect(beyondTolerance(0n, 5n, tol)).toBe(true);
    expect(toBasisPoints('2.5')).toBe(250n);
  });

  it('splits and spreads money exactly', () => {
    expect(splitAmount(60n * M, 30n * M, 3333n)).toBe(50_001_000n);
    expect(splitAmount(10n, 11n, 5000n)).toBe(11n);
    expect(distribute(-40n * M, [1395n * M, 465n * M])).toEqual([-30n * M, -10n * M]);
    const parts = distribute(100n, [1n, 1n, 1n]);
    expect(parts.reduce((s, p) => s + p, 0n)).toBe(100n);
    expect(parts).toEqual([34n, 33n, 33n]);
    expect(distribute(7n, [0n, 0n])).toEqual([7n, 0n]);
  });
});
