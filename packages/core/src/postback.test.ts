import { describe, expect, it } from 'vitest';
import { en, es } from './i18n/catalogues.ts';
import {
  exampleValues,
  MACRO_EXAMPLE_VALUES,
  macrosIn,
  POSTBACK_MACRO_NAMES,
  POSTBACK_MACROS,
  postbackUrlProblem,
  resolveMacros,
  unknownMacros,
} from './postback.ts';

describe('postback macros', () => {
  it('documents every macro the issue names, each with a translated meaning and an example', () => {
    expect(POSTBACK_MACRO_NAMES).toEqual(
      expect.arrayContaining([
        'click_id',
        'payout',
        'revenue',
        'event',
        'event_id',
        'campaign_id',
        'offer_id',
        'currency',
        'timestamp',
        'sub1',
        'sub2',
        'sub3',
        'sub4',
        'sub5',
        'country',
      ]),
    );
    for (const m of POSTBACK_MACROS) {
      expect(en, m.name).toHaveProperty(m.description);
      expect(es, m.name).toHaveProperty(m.description);
      expect(m.example, m.name).not.toBe('');
    }
  });

  it('resolves the macros with URL-encoded values, leaving the rest of the URL as typed', () => {
    const url =
      'https://track.adv.example/pb?cid={click_id}&amount={payout}&ev={event}&s4={sub4}&s5={sub5}&cur={currency}';
    expect(
      resolveMacros(url, {
        click_id: 'a&b=c',
        payout: '1.50',
        event: 'first purchase',
        sub4: 'ñandú',
        sub5: 'x/y?z#w',
      }),
    ).toBe(
      'https://track.adv.example/pb?cid=a%26b%3Dc&amount=1.50&ev=first%20purchase&s4=%C3%B1and%C3%BA&s5=x%2Fy%3Fz%23w&cur=USD',
    );
  });

  it('fills a macro with no value given with its example, or with nothing when asked', () => {
    expect(resolveMacros('https://a.example/?c={country}&t={timestamp}', {})).toBe(
      `https://a.example/?c=ES&t=${MACRO_EXAMPLE_VALUES.timestamp}`,
    );
    expect(resolveMacros('https://a.example/?c={country}', {}, false)).toBe('https://a.example/?c=');
  });

  it('uses an event’s own figures and ids as examples where it has them', () => {
    const values = exampleValues({
      payout: '4.2500',
      revenue: '6',
      event: 'signup',
      event_id: 9,
      campaign_id: 3,
      offer_id: 7,
      currency: 'EUR',
    });
    expect(values).toMatchObject({
      payout: '4.2500',
      revenue: '6',
      event: 'signup',
      event_id: '9',
      campaign_id: '3',
      offer_id: '7',
      currency: 'EUR',
      click_id: MACRO_EXAMPLE_VALUES.click_id,
    });
    // An empty form field keeps the example.
    expect(exampleValues({ payout: '  ', event: null }).payout).toBe(MACRO_EXAMPLE_VALUES.payout);
  });

  it('flags unknown macros and stray braces, and leaves them unresolved', () => {
    const url = 'https://a.example/?id={clickid}&p={payout}&x={Sub1}';
    expect(macrosIn(url)).toEqual(['clickid', 'payout', 'Sub1']);
    expect(unknownMacros(url)).toEqual(['{clickid}', '{Sub1}']);
    expect(resolveMacros(url, { payout: '1' })).toBe('https://a.example/?id={clickid}&p=1&x={Sub1}');
    expect(unknownMacros('https://a.example/?id={click_id')).toEqual(['{click_id']);
    expect(unknownMacros('https://a.example/?id={click_id}&p={payout}')).toEqual([]);
  });

  it('checks a postback URL: required, the spec’s URL rule with macros resolved, http or https, known macros only', () => {
    expect(postbackUrlProblem('')).toBe('error.required');
    expect(postbackUrlProblem('   ')).toBe('error.required');
    expect(postbackUrlProblem('https://pb.adv.example/conv?click={click_id}&amount={payout}')).toBeNull();
    expect(postbackUrlProblem('http://10.0.0.5/pb?c={click_id}')).toBeNull();
    // The spec's rule: a scheme and a host, no spaces.
    expect(postbackUrlProblem('pb.adv.example/conv?click={click_id}')).toBe('inputs.url.invalid');
    expect(postbackUrlProblem('https://pb.adv.example/conv?c=a b')).toBe('inputs.url.invalid');
    expect(postbackUrlProblem('mailto:ops@adv.example')).toBe('inputs.url.invalid');
    // ftp passes the spec's rule but cannot take an HTTP call.
    expect(postbackUrlProblem('ftp://files.adv.example/pb')).toBe('campaign.postback.http_only');
    expect(postbackUrlProblem('https://pb.adv.example/conv?click={clickid}')).toBe(
      'campaign.postback.unknown_macro',
    );
    expect(postbackUrlProblem(`https://pb.adv.example/${'a'.repeat(2000)}`)).toBe('error.too_long');
  });
});
