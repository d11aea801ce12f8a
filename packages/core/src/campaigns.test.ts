/** Offers' and campaigns' rules (the same schemas the form and the API use) and the campaign pacing. */
import { describe, expect, it } from 'vitest';
import type { z } from 'zod';
import { campaignPacing } from './campaign-pacing.ts';
import { en, es } from './i18n/catalogues.ts';
import { campaignEventFieldsSchema } from './resources/campaign-events.ts';
import { campaignInputSchema } from './resources/campaigns.ts';
import { moneyWarnings, offerInputSchema, payoutAboveRevenue } from './resources/offers.ts';
import { issuesToErrors } from './validation-errors.ts';

const errorsOf = (schema: z.ZodType, value: unknown) => {
  const r = schema.safeParse(value);
  return r.success ? {} : issuesToErrors(r.error.issues);
};

const offer = (over: Record<string, unknown> = {}) => ({
  name: 'Spring sale',
  advertiser_id: 4,
  tracking_url: 'https://go.adv.example/click?cid={click_id}&s1={sub1}',
  payout: '2.50',
  revenue: '3.20',
  ...over,
});

const campaign = (over: Record<string, unknown> = {}) => ({
  name: 'Spring sale ES',
  advertiser_id: 4,
  offer_id: 9,
  start_date: '2026-03-01',
  end_date: '2026-03-31',
  total_budget: '3100',
  model: 'CPA',
  rate: '3.2',
  ...over,
});

describe('offer rules', () => {
  it('takes a valid offer and fills the defaults', () => {
    const r = offerInputSchema.safeParse(
      offer({ preview_url: '', countries: ['ES', 'PT'], platforms: ['ios'] }),
    );
    expect(r.success).toBe(true);
    expect(r.data).toMatchObject({
      status: 'draft',
      currency: 'USD',
      preview_url: null,
      cap_type: 'none',
      daily_cap: null,
      total_cap: null,
      countries: ['ES', 'PT'],
    });
  });

  it('refuses bad URLs, amounts and lists with the rule’s key', () => {
    expect(errorsOf(offerInputSchema, offer({ tracking_url: 'go.adv.example/click' }))).toEqual({
      tracking_url: 'inputs.url.invalid',
    });
    expect(
      errorsOf(offerInputSchema, offer({ tracking_url: 'https://go.adv.example/?c={clickid}' })),
    ).toEqual({ tracking_url: 'campaign.postback.unknown_macro' });
    // The spec's rule takes ftp for a preview (it is not called by us).
    expect(
      errorsOf(offerInputSchema, offer({ preview_url: 'ftp://files.adv.example/landing.html' })),
    ).toEqual({});
    expect(errorsOf(offerInputSchema, offer({ preview_url: 'javascript:alert(1)' }))).toEqual({
      preview_url: 'inputs.url.invalid',
    });
    for (const payout of ['-1', '1.23456', 'ten', '100000.01'])
      expect(errorsOf(offerInputSchema, offer({ payout })), payout).toEqual({
        payout: 'offer.payout_invalid',
      });
    expect(errorsOf(offerInputSchema, offer({ countries: ['ES', 'XX'] }))).toEqual({
      countries: 'offer.countries_invalid',
    });
    expect(errorsOf(offerInputSchema, offer({ platforms: ['ios', 'ios'] }))).toEqual({
      platforms: 'offer.list_repeated',
    });
    expect(errorsOf(offerInputSchema, offer({ advertiser_id: null }))).toEqual({
      advertiser_id: 'offer.advertiser_required',
    });
  });

  it('checks caps: a type with a cap, whole conversions, the daily one not above the total', () => {
    expect(
      errorsOf(offerInputSchema, offer({ cap_type: 'conversions', daily_cap: 50, total_cap: '1000' })),
    ).toEqual({});
    expect(errorsOf(offerInputSchema, offer({ cap_type: 'budget', daily_cap: '150.50' }))).toEqual({});
    expect(errorsOf(offerInputSchema, offer({ cap_type: 'none', daily_cap: '10' }))).toEqual({
      daily_cap: 'offer.cap_without_type',
    });
    expect(errorsOf(offerInputSchema, offer({ cap_type: 'budget' }))).toEqual({
      daily_cap: 'offer.cap_required',
    });
    expect(errorsOf(offerInputSchema, offer({ cap_type: 'conversions', total_cap: '10.5' }))).toEqual({
      total_cap: 'offer.cap_whole',
    });
    // A stored whole number reads back with two decimals: still whole.
    expect(errorsOf(offerInputSchema, offer({ cap_type: 'conversions', total_cap: '500.00' }))).toEqual({});
    expect(
      errorsOf(offerInputSchema, offer({ cap_type: 'budget', daily_cap: '100.01', total_cap: '100' })),
    ).toEqual({ daily_cap: 'offer.cap_daily_above_total' });
    expect(errorsOf(offerInputSchema, offer({ cap_type: 'budget', daily_cap: '0' }))).toEqual({
      daily_cap: 'offer.cap_invalid',
    });
  });

  it('warns, without refusing, about a payout above the revenue, compared exactly', () => {
    expect(payoutAboveRevenue('3.2001', '3.2')).toBe(true);
    expect(payoutAboveRevenue('3.2000', '3.2')).toBe(false);
    // 0.1 + 0.2 style float traps do not apply: decimal texts are compared as integers.
    expect(payoutAboveRevenue('0.3', '0.30000001')).toBe(false);
    expect(payoutAboveRevenue('12', 'x')).toBe(false);
    expect(moneyWarnings({ payout: '5', revenue: '4.99' })).toEqual({ payout: 'offer.payout_above_revenue' });
    expect(moneyWarnings({ payout: '4', revenue: '4.99' })).toEqual({});
    expect(errorsOf(offerInputSchema, offer({ payout: '5', revenue: '4' }))).toEqual({});
  });
});

describe('campaign rules', () => {
  it('takes a valid campaign', () => {
    expect(
      errorsOf(campaignInputSchema, campaign({ daily_budget: '100', devices: ['phone'], countries: ['ES'] })),
    ).toEqual({});
  });

  it('needs both dates, the end not before the start', () => {
    expect(errorsOf(campaignInputSchema, campaign({ start_date: '' }))).toEqual({
      start_date: 'campaign.date_required',
    });
    expect(errorsOf(campaignInputSchema, campaign({ end_date: '2026-02-30' }))).toEqual({
      end_date: 'campaign.date_invalid',
    });
    expect(errorsOf(campaignInputSchema, campaign({ start_date: '0000-01-01' }))).toEqual({
      start_date: 'campaign.date_invalid',
    });
    expect(errorsOf(campaignInputSchema, campaign({ end_date: '2026-02-28' }))).toEqual({
      end_date: 'campaign.end_before_start',
    });
    expect(errorsOf(campaignInputSchema, campaign({ end_date: '2026-03-01' }))).toEqual({});
  });

  it('checks budgets (daily not above total), the model and its rate, devices and caps', () => {
    expect(errorsOf(campaignInputSchema, campaign({ total_budget: '0' }))).toEqual({
      total_budget: 'campaign.budget_invalid',
    });
    expect(errorsOf(campaignInputSchema, campaign({ daily_budget: '3100.01' }))).toEqual({
      daily_budget: 'campaign.daily_above_total',
    });
    expect(errorsOf(campaignInputSchema, campaign({ daily_budget: '12.345' }))).toEqual({
      daily_budget: 'campaign.budget_invalid',
    });
    expect(errorsOf(campaignInputSchema, campaign({ model: 'CPV' }))).toEqual({
      model: 'campaign.model_required',
    });
    expect(errorsOf(campaignInputSchema, campaign({ rate: '' }))).toEqual({ rate: 'campaign.rate_invalid' });
    expect(errorsOf(campaignInputSchema, campaign({ devices: ['watch'] }))).toEqual({
      devices: 'campaign.devices_invalid',
    });
    expect(
      errorsOf(campaignInputSchema, campaign({ cap_type: 'conversions', daily_cap: '20', total_cap: '10' })),
    ).toEqual({ daily_cap: 'offer.cap_daily_above_total' });
  });

  it('checks an event: code, postback URL, windows', () => {
    const event = (over: Record<string, unknown> = {}) => ({
      campaign_id: 1,
      name: 'Install',
      code: 'install',
      payout: '1.5',
      revenue: '2',
      postback_url: 'https://pb.adv.example/?c={click_id}',
      ...over,
    });
    expect(errorsOf(campaignEventFieldsSchema, event())).toEqual({});
    expect(campaignEventFieldsSchema.parse(event())).toMatchObject({
      click_window_days: 30,
      view_window_hours: 24,
      status: 'active',
    });
    expect(errorsOf(campaignEventFieldsSchema, event({ code: 'First Purchase' }))).toEqual({
      code: 'campaign.event.code_invalid',
    });
    expect(errorsOf(campaignEventFieldsSchema, event({ postback_url: 'ftp://pb.adv.example/' }))).toEqual({
      postback_url: 'campaign.postback.http_only',
    });
    expect(
      errorsOf(campaignEventFieldsSchema, event({ postback_url: 'https://pb.adv.example/?c={transaction}' })),
    ).toEqual({ postback_url: 'campaign.postback.unknown_macro' });
    expect(errorsOf(campaignEventFieldsSchema, event({ click_window_days: 0 }))).toEqual({
      click_window_days: 'campaign.event.click_window_invalid',
    });
    expect(errorsOf(campaignEventFieldsSchema, event({ view_window_hours: 169 }))).toEqual({
      view_window_hours: 'campaign.event.view_window_invalid',
    });
  });

  it('has every rule key in English and Spanish', () => {
    for (const key of [
      'campaign.date_required',
      'campaign.end_before_start',
      'campaign.daily_above_total',
      'offer.cap_whole',
      'offer.payout_above_revenue',
      'campaign.event.code_taken',
      'campaign.postback.http_only',
    ]) {
      expect(en, key).toHaveProperty(key);
      expect(es, key).toHaveProperty(key);
    }
  });
});

describe('campaign pacing', () => {
  const base = {
    start_date: '2026-03-01',
    end_date: '2026-03-10',
    total_budget: '1000',
    daily_budget: '150',
    currency: 'USD',
    days: [],
  };
  const at = (iso: string) => Date.parse(iso);

  it('expects the total budget times the share of the campaign gone by, and says ahead or behind', () => {
    // 2.5 of 10 days gone by: 250.00 expected; 300 spent is 120 % (ahead), 200 is 80 % (behind).
    const ahead = campaignPacing({
      ...base,
      spentMicros: 300_000_000n,
      todayMicros: 60_000_000n,
      asOfMs: at('2026-03-03T12:00:00Z'),
    });
    expect(ahead.phase).toBe('running');
    expect(ahead.total).toMatchObject({
      budget: '1000.00',
      spent: '300.00',
      elapsed_pct: 25,
      expected: '250.00',
      pace_pct: 120,
      usage_pct: 30,
      status: 'ahead',
      alert: false,
    });
    // Today: 60 of a 150 daily budget, half the day gone by (75 expected).
    expect(ahead.today).toEqual({
      day: '2026-03-03',
      budget: '150.00',
      spent: '60.00',
      expected: '75.00',
      usage_pct: 40,
      alert: false,
    });
    const behind = campaignPacing({
      ...base,
      spentMicros: 200_000_000n,
      todayMicros: 0n,
      asOfMs: at('2026-03-03T12:00:00Z'),
    });
    expect(behind.total.status).toBe('behind');
    expect(
      campaignPacing({
        ...base,
        spentMicros: 250_000_000n,
        todayMicros: 0n,
        asOfMs: at('2026-03-03T12:00:00Z'),
      }).total.status,
    ).toBe('on_track');
  });

  it('lists the days gone by with their spend, flagging a day over the daily budget', () => {
    const p = campaignPacing({
      ...base,
      spentMicros: 310_000_001n,
      todayMicros: 0n,
      days: [
        { day: '2026-03-01', micros: 150_000_001n },
        { day: '2026-03-02', micros: 160_000_000n },
      ],
      asOfMs: at('2026-03-03T00:00:00Z'),
    });
    expect(p.days).toEqual([
      { day: '2026-03-01', spent: '150.00', over_daily_budget: true },
      { day: '2026-03-02', spent: '160.00', over_daily_budget: true },
    ]);
    expect(p.total.spent).toBe('310.00');
  });

  it('before the start nothing is expected; after the end everything is, and overspend alerts', () => {
    const early = campaignPacing({
      ...base,
      spentMicros: 0n,
      todayMicros: 0n,
      asOfMs: at('2026-02-20T00:00:00Z'),
    });
    expect(early).toMatchObject({ phase: 'not_started', today: null, days: [] });
    expect(early.total).toMatchObject({ expected: '0.00', pace_pct: null, status: null, elapsed_pct: 0 });
    const over = campaignPacing({
      ...base,
      spentMicros: 1_000_000_001n,
      todayMicros: 0n,
      asOfMs: at('2026-04-01T00:00:00Z'),
    });
    expect(over.phase).toBe('ended');
    expect(over.total).toMatchObject({ elapsed_pct: 100, expected: '1000.00', alert: true });
    expect(over.days).toHaveLength(10);
  });

  it('does not compare a campaign in another currency than the warehouse’s', () => {
    const eur = campaignPacing({
      ...base,
      currency: 'EUR',
      spentMicros: 900_000_000n,
      todayMicros: 200_000_000n,
      asOfMs: at('2026-03-03T12:00:00Z'),
    });
    expect(eur.comparable).toBe(false);
    expect(eur.total).toMatchObject({
      spent: '900.00',
      expected: '250.00',
      pace_pct: null,
      usage_pct: null,
      status: null,
      alert: false,
    });
    expect(eur.today).toMatchObject({ usage_pct: null, alert: false });
  });
});
