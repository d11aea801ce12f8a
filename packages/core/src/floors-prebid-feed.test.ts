import { describe, expect, it } from 'vitest';
import { FEED_AUCTION_DELAY_MS, prebidFeedSnippet } from './floors-prebid-feed.ts';

/** Runs a snippet against a stand-in `pbjs` and answers what it passed to setConfig. */
function run(snippet: string): Record<string, unknown> {
  const configs: Record<string, unknown>[] = [];
  const pbjs = {
    que: { push: (fn: () => void) => fn() },
    setConfig: (c: Record<string, unknown>) => configs.push(c),
  };
  new Function('pbjs', snippet)(pbjs);
  expect(configs).toHaveLength(1);
  return configs[0]!;
}

describe('the Prebid wrapper snippet of a floors feed', () => {
  const url = 'https://bo.example/v1/public/floors/bofl_abc.json?currency=EUR';

  it('points floors.endpoint.url at the feed, with the catch-all floor as data until it arrives', () => {
    const config = run(
      prebidFeedSnippet({
        url,
        currency: 'EUR',
        fields: ['domain', 'mediaType', 'size'],
        defaultFloor: 0.15,
      }),
    );
    expect(config).toEqual({
      floors: {
        auctionDelay: FEED_AUCTION_DELAY_MS,
        endpoint: { url },
        data: {
          currency: 'EUR',
          schema: { fields: ['domain', 'mediaType', 'size'], delimiter: '|' },
          values: { '*|*|*': 0.15 },
          default: 0.15,
        },
      },
    });
    // Prebid keeps a key only when it splits into as many parts as there are fields.
    const data = (config.floors as { data: { values: Record<string, number>; schema: { fields: string[] } } })
      .data;
    for (const key of Object.keys(data.values))
      expect(key.split('|')).toHaveLength(data.schema.fields.length);
  });

  it('has no data when the file has no default (no floor until the file arrives)', () => {
    const config = run(prebidFeedSnippet({ url, currency: 'USD', fields: ['domain'], defaultFloor: null }));
    expect(config).toEqual({ floors: { auctionDelay: FEED_AUCTION_DELAY_MS, endpoint: { url } } });
  });

  it('writes the URL as a string literal, whatever it holds', () => {
    const odd = 'https://bo.example/v1/public/floors/bofl_a\'b"c\\d.json';
    const config = run(prebidFeedSnippet({ url: odd, currency: 'USD', fields: ['size'], defaultFloor: 1 }));
    expect((config.floors as { endpoint: { url: string } }).endpoint.url).toBe(odd);
  });
});
