/**
 * The Prebid.js configuration a publisher's wrapper needs to read its floors feed (the public URL
 * with a token, docs/decisions/020-prebid-floors-export.md), as the floors screen shows it.
 *
 * Prebid's priceFloors module (modules/priceFloors.ts, `handleSetFloorsConfig`,
 * `generateAndHandleFetch`, `handleFetchResponse`) takes `floors.endpoint.url` and fetches it once
 * with a GET when setConfig runs; auctions started meanwhile wait up to `floors.auctionDelay` ms
 * for it. The fetched object replaces `floors.data`, which therefore serves until the file
 * arrives, and for good when the fetch fails. Here `data` is the file's catch-all floor (its
 * `default`, also written as the all-`*` key, which Prebid before 8.15 needs), left out when the
 * file has none: then no floor applies until the file arrives, as our rules would give none to a
 * request they know nothing of.
 */
import { PREBID_DELIMITER, type PrebidFloorField } from './floors-prebid.ts';

/** How long the snippet lets the first auctions wait for the file, in milliseconds. */
export const FEED_AUCTION_DELAY_MS = 100;

export interface PrebidFeedSnippetInput {
  /** The feed's absolute URL (with `?currency=` when one is chosen). */
  url: string;
  /** The file's currency and fields (the export report's). */
  currency: string;
  fields: readonly PrebidFloorField[];
  /** The file's `default`, null when it has none. */
  defaultFloor: number | null;
}

/** The `floors` object of `pbjs.setConfig` for a feed. */
export function prebidFeedConfig(input: PrebidFeedSnippetInput): Record<string, unknown> {
  const floors: Record<string, unknown> = {
    auctionDelay: FEED_AUCTION_DELAY_MS,
    endpoint: { url: input.url },
  };
  if (input.defaultFloor !== null && input.fields.length > 0) {
    const all = input.fields.map(() => '*').join(PREBID_DELIMITER);
    floors.data = {
      currency: input.currency,
      schema: { fields: [...input.fields], delimiter: PREBID_DELIMITER },
      values: { [all]: input.defaultFloor },
      default: input.defaultFloor,
    };
  }
  return floors;
}

/** JavaScript for the wrapper: `pbjs.que.push(function () { pbjs.setConfig({ floors: … }); });`. */
export function prebidFeedSnippet(input: PrebidFeedSnippetInput): string {
  const floors = JSON.stringify(prebidFeedConfig(input), null, 2).replace(/\n/g, '\n    ');
  return `pbjs.que.push(function () {\n  pbjs.setConfig({\n    floors: ${floors}\n  });\n});\n`;
}
