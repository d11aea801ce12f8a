import { describe, expect, it } from 'vitest';
import { scheduledJobInput } from './resources/scheduled-jobs.ts';
import { billingMonthOf, cronInWords, cronProblem, defaultParams, nextRuns, previewOf, TASK_PARAM_FIELDS, TASK_PARAMS, TASK_TYPES } from './scheduler.ts';

describe('scheduler cron rules', () => {
  it('validates five-field expressions with a message key', () => {
    expect(cronProblem('0 7 * * 1-5')).toBeNull();
    expect(cronProblem('*/15 * * * *')).toBeNull();
    expect(cronProblem('0 0 L * *')).toBeNull();
    expect(cronProblem('')).toBe('scheduler.cron_required');
    expect(cronProblem(null)).toBe('scheduler.cron_required');
    expect(cronProblem('0 7 * *')).toBe('scheduler.cron_invalid');
    expect(cronProblem('0 0 7 * * *')).toBe('scheduler.cron_invalid');
    expect(cronProblem('60 * * * *')).toBe('scheduler.cron_invalid');
    expect(cronProblem('0 25 * * *')).toBe('scheduler.cron_invalid');
    expect(cronProblem('banana')).toBe('scheduler.cron_invalid');
    expect(cronProblem('0 0 31 2 *')).toBe('scheduler.cron_never');
  });

  it('gives the next five runs in the zone across the spring-forward gap and the autumn repeat', () => {
    const madrid = (from: string) => nextRuns('30 2 * * *', 'Europe/Madrid', Date.parse(from));
    expect(madrid('2026-03-28T12:00:00Z').slice(0, 2)).toEqual(['2026-03-29T01:00:00.000Z', '2026-03-30T00:30:00.000Z']);
    expect(madrid('2026-10-24T12:00:00Z').slice(0, 2)).toEqual(['2026-10-25T00:30:00.000Z', '2026-10-26T01:30:00.000Z']);
    // An hourly job follows the clock: no 02:00 on the spring day, two on the autumn day.
    const hourlySpring = nextRuns('0 * * * *', 'Europe/Madrid', Date.parse('2026-03-28T23:30:00Z'), 3);
    expect(hourlySpring).toEqual(['2026-03-29T00:00:00.000Z', '2026-03-29T01:00:00.000Z', '2026-03-29T02:00:00.000Z']);
    const hourlyAutumn = nextRuns('0 * * * *', 'Europe/Madrid', Date.parse('2026-10-24T23:30:00Z'), 3);
    expect(hourlyAutumn).toEqual(['2026-10-25T00:00:00.000Z', '2026-10-25T01:00:00.000Z', '2026-10-25T02:00:00.000Z']);
    expect(nextRuns('30 2 * * *', 'Not/AZone', Date.now())).toEqual([]);
    expect(nextRuns('30 2 * *', 'UTC', Date.now())).toEqual([]);
  });

  it('says the expression in words in English and Spanish', () => {
    expect(cronInWords('0 7 * * 1-5', 'en')).toBe('At 07:00, Monday through Friday');
    expect(cronInWords('0 7 * * 1-5', 'es')).toBe('A las 07:00, de lunes a viernes');
    expect(cronInWords('nope', 'en')).toBeNull();
    expect(previewOf('0 6 1 * *', 'Europe/Madrid', Date.parse('2026-11-26T00:00:00Z'), 'en')).toEqual({
      valid: true,
      error: null,
      words: 'At 06:00, on day 1 of the month',
      next_runs: ['2026-12-01T05:00:00.000Z', '2027-01-01T05:00:00.000Z', '2027-02-01T05:00:00.000Z', '2027-03-01T05:00:00.000Z', '2027-04-01T04:00:00.000Z'],
    });
    expect(previewOf('0 6 1 * *', 'Mars/Olympus', Date.now(), 'en').error).toBe('scheduler.timezone_invalid');
  });

  it('checks each task type\'s parameters and normalises them', () => {
    const ok = scheduledJobInput.safeParse({ name: ' Send ', cron: ' 0  7 * * * ', task_type: 'dataviewer.send', params: { dataviewer_id: 4, recipients: ['Ana@AdTech.example'] } });
    expect(ok.success && ok.data).toEqual({
      name: 'Send',
      cron: '0 7 * * *',
      timezone: 'Europe/Madrid',
      task_type: 'dataviewer.send',
      enabled: true,
      params: { dataviewer_id: 4, recipients: ['ana@adtech.example'], format: 'xlsx', range_preset: 'yesterday' },
    });
    const bad = scheduledJobInput.safeParse({ name: 'x', cron: '0 7 * * *', task_type: 'firewall.expire', params: { extra: 1 } });
    expect(bad.success).toBe(false);
    expect(bad.error!.issues[0]!.path).toEqual(['params']);
    const disc = TASK_PARAMS['discrepancy.run'].safeParse({ date_offset: null, date: '2026-02-30' });
    expect(disc.success).toBe(false);
    expect(TASK_PARAMS['discrepancy.run'].parse({})).toEqual({ date_offset: -1, date: null, network_ids: [] });
    for (const task of TASK_TYPES) {
      const keys = Object.keys((TASK_PARAMS[task] as unknown as { shape?: object }).shape ?? (TASK_PARAMS[task] as unknown as { def: { in?: { shape: object } } }).def.in?.shape ?? {});
      if (keys.length > 0) expect(TASK_PARAM_FIELDS[task].map((f) => f.key).sort(), task).toEqual(keys.sort());
      expect(typeof defaultParams(task)).toBe('object');
    }
  });

  it('picks the billing month from the run\'s local date', () => {
    expect(billingMonthOf('previous', Date.parse('2026-01-01T05:00:00Z'), 'Europe/Madrid')).toBe('2025-12');
    expect(billingMonthOf('current', Date.parse('2026-01-31T23:30:00Z'), 'Europe/Madrid')).toBe('2026-02');
  });
});
