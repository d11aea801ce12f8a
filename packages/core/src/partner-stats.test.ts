import { describe, expect, it } from 'vitest';
import {
  AmazonColumnMissing,
  guessAmazonColumns,
  normaliseFileText,
  normaliseNumber,
  parseCurrency,
  parseImpressions,
  parseRevenue,
  parseStatDay,
  readAmazonRecords,
  revenueText,
  sameFigures,
  sampleApsCsv,
  duplicateEntries,
  APS_COLUMNS,
} from './partner-stats.ts';

const TODAY = '2026-11-26';

describe('partner-reported figures: cell rules', () => {
  it('reads a day: YYYY-MM-DD or the spec date-times; not impossible, not future, not before 2000', () => {
    expect(parseStatDay('2026-11-25', TODAY)).toEqual({ ok: true, value: '2026-11-25' });
    for (const v of ['2026-11-25 10:30', '2026-11-25T10:30', '2026-11-25 10:30:15', '2026-11-25T10:30:15']) expect(parseStatDay(v, TODAY)).toEqual({ ok: true, value: '2026-11-25' });
    for (const v of ['2026-02-30', '25/11/2026', '2026-11-25 25:00', '1999-12-31', 'x']) expect(parseStatDay(v, TODAY)).toEqual({ ok: false, error: 'stats.date_invalid' });
    expect(parseStatDay('2026-11-27', TODAY)).toEqual({ ok: false, error: 'stats.date_future' });
    expect(parseStatDay('  ', TODAY)).toEqual({ ok: false, error: 'stats.required' });
  });

  it('reads numbers as files write them', () => {
    expect(normaliseNumber('1,234.50')).toEqual({ ok: true, value: '1234.50' });
    expect(normaliseNumber('1.234,50')).toEqual({ ok: true, value: '1234.50' });
    expect(normaliseNumber('12,5')).toEqual({ ok: true, value: '12.5' });
    expect(normaliseNumber('1,234')).toEqual({ ok: true, value: '1234' });
    expect(normaliseNumber('1,234', true)).toEqual({ ok: true, value: '1.234' });
    expect(normaliseNumber('$ 3.10')).toEqual({ ok: true, value: '3.10' });
    expect(normaliseNumber('-3')).toEqual({ ok: false, error: 'stats.negative' });
    expect(normaliseNumber('(3.00)')).toEqual({ ok: false, error: 'stats.negative' });
    expect(normaliseNumber('-0')).toEqual({ ok: true, value: '0' });
    expect(normaliseNumber('n/a')).toEqual({ ok: false, error: 'stats.number_invalid' });
  });

  it('impressions are whole; revenue is rounded to the micro-unit; USD only', () => {
    expect(parseImpressions('1,000')).toEqual({ ok: true, value: 1000 });
    expect(parseImpressions('10.5')).toEqual({ ok: false, error: 'stats.impressions_whole' });
    expect(parseImpressions('2000000000000')).toEqual({ ok: false, error: 'stats.too_large' });
    expect(parseRevenue('1.0000005')).toEqual({ ok: true, value: '1.000001' });
    expect(parseRevenue('1.0000004')).toEqual({ ok: true, value: '1.000000' });
    expect(parseRevenue('100000000.01')).toEqual({ ok: false, error: 'stats.too_large' });
    expect(parseCurrency('')).toEqual({ ok: true, value: 'USD' });
    expect(parseCurrency('usd')).toEqual({ ok: true, value: 'USD' });
    expect(parseCurrency('EUR')).toEqual({ ok: false, error: 'stats.currency_invalid' });
    expect(revenueText('183.250000')).toBe('183.25');
    expect(revenueText('1.000001')).toBe('1.000001');
    expect(sameFigures({ impressions: 1, revenue: '1.5', currency: 'USD' }, { impressions: '1', revenue: '1.500000', currency: 'USD' })).toBe(true);
    expect(duplicateEntries([{ day: 'a', demand_partner_id: 1 }, { day: 'a', demand_partner_id: 2 }, { day: 'a', demand_partner_id: 1 }])).toEqual([2]);
  });
});

describe('APS earnings files', () => {
  const headers = [...APS_COLUMNS];
  const columns = { date: 'Date', impressions: 'Impressions', revenue: 'Earnings (USD)', currency: null, ad_unit: 'Slot Name' };
  const rec = (date: string, imps: string, rev: string, slot = 'top') => ({ Date: date, 'Slot Name': slot, 'Slot UUID': 'u', 'Ad Size': '728x90', Impressions: imps, Clicks: '1', 'Earnings (USD)': rev, 'eCPM (USD)': '1' });

  it('guesses the mapping from APS names', () => {
    expect(guessAmazonColumns(headers)).toEqual({ date: 'Date', impressions: 'Impressions', revenue: 'Earnings (USD)', ad_unit: 'Slot Name' });
  });

  it('drops rows with an empty value, flags each row, sums the valid rows per day', () => {
    const out = readAmazonRecords(headers, [rec('2026-11-01', '10', '1.50'), rec('2026-11-01', '20', '2.25', 'mpu'), rec('2026-11-02', '', '1'), rec('2026-11-02', '-1', '1')], columns, { delimiter: ',', today: TODAY });
    expect(out.dropped).toBe(1);
    expect(out.invalid).toBe(1);
    expect(out.rows.map((r) => [r.line, r.errors])).toEqual([
      [2, {}],
      [3, {}],
      [5, { impressions: 'stats.negative' }],
    ]);
    expect(out.days).toEqual([{ day: '2026-11-01', impressions: 30, revenue: '3.750000', currency: 'USD', rows: 2 }]);
  });

  it('refuses a mapping naming a column the file lacks', () => {
    expect(() => readAmazonRecords(['Day'], [], columns, { delimiter: ',', today: TODAY })).toThrow(AmazonColumnMissing);
  });

  it('the sample file reads without errors; a file is the same whatever its BOM and line endings', () => {
    const text = sampleApsCsv(TODAY);
    const [head, ...lines] = text.trim().split('\n');
    expect(head!.split(',')).toEqual(headers);
    const records = lines.map((l) => Object.fromEntries(l.split(',').map((v, i) => [headers[i]!, v])));
    const out = readAmazonRecords(headers, records, columns, { delimiter: ',', today: TODAY });
    expect(out.invalid).toBe(0);
    expect(out.days.map((d) => d.day)).toEqual(['2026-11-21', '2026-11-22', '2026-11-23', '2026-11-24', '2026-11-25']);
    expect(normaliseFileText(`\uFEFFa,b\r\n1,2\r\n\r\n`)).toBe(normaliseFileText('a,b\n1,2'));
  });
});
