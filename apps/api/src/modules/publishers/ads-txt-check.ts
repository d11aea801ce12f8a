/**
 * The ads.txt check: for each property of a publisher, read its ads.txt (a site:
 * `https://<domain>/ads.txt`) or app-ads.txt (an app or a CTV app: on the publisher's domain,
 * `https://<seller domain>/app-ads.txt`, where the IAB's app-ads.txt lives; an app whose developer
 * domain is known (app_profiles, the SDK screens: the store listing's developer website) is read
 * there instead), parse it with core's
 * ads.txt 1.1 parser, and mark the property:
 *   verified      the file has our line (our domain, the publisher's seller id, DIRECT or RESELLER)
 *   missing_line  the file was read but lacks it
 *   unreachable   no file (an HTTP error, a timeout, no domain to ask)
 * with the date of the check and what was found (the URL, the HTTP status or error, malformed
 * lines). The fetcher is replaceable (`ctx.adsTxtFetcher`), so tests need no network. Runs on
 * demand for one publisher and nightly for all (jobs: `ads-txt-check`).
 */
import { ENVIRONMENTS } from '@backoffice/core/reports';
import { hasAdsTxtLine, parseAdsTxt } from '@backoffice/core/standards/ads-txt';
import type { AppContext } from '../../context.ts';
import type { JobDefinition } from '../../jobs/types.ts';
import { query } from '../../reports-data/sql.ts';

export type AdsTxtStatus = 'unchecked' | 'verified' | 'missing_line' | 'unreachable';

/** Reads a URL: its HTTP status and body text. Throws on a network error or a timeout. */
export type AdsTxtFetcher = (url: string) => Promise<{ status: number; body: string }>;

/** Bytes of a file read at most (the biggest real ads.txt files are a few hundred KB). */
const MAX_BYTES = 2_000_000;
const TIMEOUT_MS = 5000;
/** Properties read at once. */
const CONCURRENCY = 6;

/** The HTTP fetcher: follows redirects, gives up after 5 s, reads at most 2 MB. */
export const httpAdsTxtFetcher: AdsTxtFetcher = async (url) => {
  const res = await fetch(url, { redirect: 'follow', signal: AbortSignal.timeout(TIMEOUT_MS), headers: { 'user-agent': 'BackOffice-adstxt-check/1.0' } });
  const text = await res.text();
  return { status: res.status, body: text.length > MAX_BYTES ? text.slice(0, MAX_BYTES) : text };
};

interface PropertyRow {
  id: number;
  name: string;
  environment_id: number;
  seller_id: string | null;
  seller_type: string;
  seller_domain: string | null;
  /** An app's developer domain (app_profiles), where its app-ads.txt is; null when unknown. */
  developer_domain?: string | null;
}

export interface CheckResult {
  checked: number;
  verified: number;
  missing_line: number;
  unreachable: number;
}

/** Where a property's file is, or null when there is no domain to ask. */
export function adsTxtUrlOf(p: Pick<PropertyRow, 'name' | 'environment_id' | 'seller_domain' | 'developer_domain'>): string | null {
  const env = ENVIRONMENTS[p.environment_id - 1] ?? 'web';
  if (env === 'web') return /^[a-z0-9.-]+\.[a-z]{2,}$/i.test(p.name) ? `https://${p.name.toLowerCase()}/ads.txt` : null;
  const domain = p.developer_domain || p.seller_domain;
  return domain ? `https://${domain}/app-ads.txt` : null;
}

async function checkOne(ctx: AppContext, p: PropertyRow, fetcher: AdsTxtFetcher): Promise<{ status: AdsTxtStatus; detail: object }> {
  const url = adsTxtUrlOf(p);
  if (!url || !p.seller_id) return { status: 'unreachable', detail: { url, error: url ? 'no seller id' : 'no domain to read the file from' } };
  let answer: { status: number; body: string };
  try {
    answer = await fetcher(url);
  } catch (err) {
    return { status: 'unreachable', detail: { url, error: err instanceof Error ? err.message : String(err) } };
  }
  if (answer.status < 200 || answer.status >= 300) return { status: 'unreachable', detail: { url, http_status: answer.status } };
  const parsed = parseAdsTxt(answer.body);
  const expected = { domain: ctx.config.companyDomains[0]!, accountId: p.seller_id, relationship: p.seller_type === 'INTERMEDIARY' ? ('RESELLER' as const) : ('DIRECT' as const) };
  const found = hasAdsTxtLine(parsed, expected);
  return {
    status: found ? 'verified' : 'missing_line',
    detail: { url, http_status: answer.status, records: parsed.records.length, malformed: parsed.errors.slice(0, 20).map((e) => ({ line: e.line, reason: e.reason })) },
  };
}

/** Checks the properties of one publisher, or one property (an app, from the SDK screens), or of every publisher that is not archived. */
export async function checkAdsTxt(ctx: AppContext, opts: { publisherId?: number; siteId?: number } = {}): Promise<CheckResult> {
  const fetcher = ctx.adsTxtFetcher ?? httpAdsTxtFetcher;
  const rows = await query<PropertyRow>(
    ctx.database,
    `SELECT s.id, s.name, s.environment_id, p.seller_id, p.seller_type, p.seller_domain, ap.developer_domain
     FROM sites s JOIN publishers p ON p.id = s.publisher_id LEFT JOIN app_profiles ap ON ap.site_id = s.id
     WHERE ${opts.siteId !== undefined ? 's.id = $1' : opts.publisherId !== undefined ? 'p.id = $1' : "p.status <> 'archived'"}
     ORDER BY s.id`,
    opts.siteId !== undefined ? [opts.siteId] : opts.publisherId !== undefined ? [opts.publisherId] : [],
  );
  const result: CheckResult = { checked: 0, verified: 0, missing_line: 0, unreachable: 0 };
  for (let i = 0; i < rows.length; i += CONCURRENCY) {
    const batch = rows.slice(i, i + CONCURRENCY);
    const outcomes = await Promise.all(batch.map((p) => checkOne(ctx, p, fetcher)));
    // One statement per batch, not one per property.
    await query(
      ctx.database,
      `UPDATE sites SET ads_txt_status = u.status, ads_txt_checked_at = now(), ads_txt_detail = u.detail::jsonb
       FROM unnest($1::int4[], $2::text[], $3::text[]) AS u(id, status, detail) WHERE sites.id = u.id`,
      [batch.map((p) => p.id), outcomes.map((o) => o.status), outcomes.map((o) => JSON.stringify(o.detail))],
    );
    for (const o of outcomes) {
      result.checked += 1;
      result[o.status as Exclude<AdsTxtStatus, 'unchecked'>] += 1;
    }
  }
  return result;
}

/**
 * Every night, every property of every publisher that is not archived; in production only (the
 * demo's generated domains are not ours to crawl; the on-demand check still works everywhere).
 */
export const adsTxtCheckJob: JobDefinition = {
  queue: 'ads-txt-check',
  cron: '30 3 * * *',
  queueOptions: { retryLimit: 1, expireInSeconds: 3600 },
  async handle(_job, jc) {
    if (jc.ctx.config.env !== 'production') return { skipped: 'runs in production only' };
    return { ...(await checkAdsTxt(jc.ctx)) };
  },
};
