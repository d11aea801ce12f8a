/**
 * The test ad server (issue 25, JS tag and PlayOn builders; decision 040): public routes the tags
 * and the builders' previews call, answering test creatives that show what arrived.
 *   GET /v1/public/serve/ad            an HTML creative: an SVG banner of the first requested size
 *                                      printing the unit, floor and consent parameters received;
 *                                      "no ad" when the floor is above the test bid (TEST_BID_CPM)
 *   GET /v1/public/serve/ad.svg        the same banner as an image (image tags, noscript)
 *   GET /v1/public/serve/click         the test landing page a click on the creative opens
 *   GET /v1/public/serve/track         a tracking pixel (VAST Impression, quartiles, errors)
 *   GET /v1/public/serve/vast-demo.xml a VAST 4.2 InLine ad playing the demo video
 *   GET /v1/public/serve/media/demo.mp4 the demo video (demo-video.ts)
 *   GET /v1/public/serve/playon.js     PlayOn's outstream player (playon-player.ts)
 *   GET /v1/builders/test-server/requests  (ACL /v1/builders read) what the test server received
 *
 * Public routes live under /v1/public/ (the one nginx location the IP firewall leaves open;
 * decision 020). Every value from the query is escaped where it is printed; no redirect leaves
 * for a URL from the query except the iframe tag's passback, and only inside a frame. The
 * creative may be framed by any page (no frame-ancestors, no X-Frame-Options) and read by any
 * origin (Cross-Origin-Resource-Policy: cross-origin); its only script is allowed by its hash.
 * A small in-memory limit per address (SERVE_RATE_LIMIT) keeps the routes cheap, and a ring of
 * the last SERVE_LOG_SIZE requests lets tests and people see what arrived.
 */
import { CURRENCIES } from '@backoffice/core/resources/companies';
import { ok } from '@backoffice/core/envelope';
import { localeFromAcceptLanguage, translate, type Locale } from '@backoffice/core/i18n/catalogues';
import { parseDecimalInput } from '@backoffice/core/inputs';
import {
  AD_MESSAGE_TYPE,
  FLOOR_MAX_DECIMALS,
  JSTAG_LOADER,
  SERVE_AD_IMAGE_PATH,
  SERVE_AD_PATH,
  SERVE_CLICK_PATH,
  SERVE_MEDIA_PATH,
  SERVE_PLAYON_PATH,
  SERVE_TRACK_PATH,
  SERVE_VAST_DEMO_PATH,
  TEST_BID_CPM,
  escapeHtml,
  isHttpUrl,
  parseSize,
} from '@backoffice/core/builders/jstag';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { createHash } from 'node:crypto';
import { z } from 'zod';
import type { AppContext } from '../../context.ts';
import { ANY_ORIGIN } from '../../plugins/cors.ts';
import type { ZodTypeProvider } from '../../plugins/validation.ts';
import { DEMO_VIDEO_SECONDS, DEMO_VIDEO_SIZE, demoVideo } from './demo-video.ts';
import { playonPlayerScript } from './playon-player.ts';

/** A CSP source allowing exactly this inline script. */
export function scriptHashSource(script: string): string {
  return `'sha256-${createHash('sha256').update(script, 'utf8').digest('base64')}'`;
}

/** The async JS tag's script, allowed by the web app's CSP (app.ts) so the preview can run it. */
export const JSTAG_LOADER_CSP_SOURCE = scriptHashSource(JSTAG_LOADER);

/** The creative's one script: tells the tag around it whether there is an ad, and its size. */
const CREATIVE_SCRIPT = `(function (b) { if (window.parent !== window) window.parent.postMessage({ type: '${AD_MESSAGE_TYPE}', fill: b.getAttribute('data-fill') === '1', width: Number(b.getAttribute('data-width')), height: Number(b.getAttribute('data-height')) }, '*'); })(document.body);`;

const CREATIVE_CSP = `default-src 'none'; script-src ${scriptHashSource(CREATIVE_SCRIPT)}; style-src 'unsafe-inline'; img-src 'self' data:; base-uri 'none'; form-action 'none'`;
const PAGE_CSP = "default-src 'none'; style-src 'unsafe-inline'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'";

// ---------------------------------------------------------------------------------------------
// What arrived (a ring) and how often (a limit per address)

export const SERVE_LOG_SIZE = 200;
export interface ServeLogEntry {
  at: string;
  /** ad, ad.svg, click, track, vast, media, playon */
  route: string;
  params: Record<string, string>;
}
const serveLog: ServeLogEntry[] = [];

function logRequest(route: string, params: Record<string, string | undefined>): void {
  const kept: Record<string, string> = {};
  for (const [k, v] of Object.entries(params)) if (v !== undefined) kept[k] = v.length > 300 ? `${v.slice(0, 300)}…` : v;
  serveLog.push({ at: new Date().toISOString(), route, params: kept });
  if (serveLog.length > SERVE_LOG_SIZE) serveLog.splice(0, serveLog.length - SERVE_LOG_SIZE);
}

/** The requests the test ad server received, newest first. */
export function serveRequests(limit = SERVE_LOG_SIZE): ServeLogEntry[] {
  return serveLog.slice(-limit).reverse();
}

/** Requests per address and minute; the counters are forgotten each minute. */
export const SERVE_RATE_LIMIT = 600;
const RATE_WINDOW_MS = 60_000;
const RATE_ADDRESSES_MAX = 50_000;
let rateWindow = 0;
const rateCounts = new Map<string, number>();

function limited(ip: string, now: number): boolean {
  if (now - rateWindow >= RATE_WINDOW_MS || rateCounts.size > RATE_ADDRESSES_MAX) {
    rateWindow = now;
    rateCounts.clear();
  }
  const count = (rateCounts.get(ip) ?? 0) + 1;
  rateCounts.set(ip, count);
  return count > SERVE_RATE_LIMIT;
}

// ---------------------------------------------------------------------------------------------
// The creative

const value = z.string().max(4000, 'error.too_long').optional();
export const serveAdQuerySchema = z.object({
  unit: value,
  sizes: value,
  floor: value,
  cur: value,
  gdpr: value,
  gdpr_consent: value,
  gpp: value,
  gpp_sid: value,
  us_privacy: value,
  click: value,
  cb: value,
  page: value,
  passback: value,
});
type AdQuery = z.infer<typeof serveAdQuerySchema>;

/** -1, 0 or 1 for two canonical non-negative decimal strings, exactly. */
function compareDecimal(a: string, b: string): number {
  const [ai = '0', af = ''] = a.split('.');
  const [bi = '0', bf = ''] = b.split('.');
  const places = Math.max(af.length, bf.length);
  const x = BigInt(ai + af.padEnd(places, '0'));
  const y = BigInt(bi + bf.padEnd(places, '0'));
  return x === y ? 0 : x > y ? 1 : -1;
}

interface AdDecision {
  width: number;
  height: number;
  fill: boolean;
  floor: string | null;
  currency: string;
}

function decide(q: AdQuery): AdDecision {
  const size = (q.sizes ?? '').split(',').map(parseSize).find((s) => s !== null) ?? { width: 300, height: 250 };
  const floor = q.floor ? parseDecimalInput(q.floor, { maxDecimals: FLOOR_MAX_DECIMALS, allowNegative: false }) : null;
  const currency = (CURRENCIES as readonly string[]).includes(q.cur ?? '') ? (q.cur as string) : 'EUR';
  return { ...size, floor, currency, fill: floor === null || compareDecimal(floor, TEST_BID_CPM) <= 0 };
}

const shorten = (text: string, max: number) => (text.length > max ? `${text.slice(0, Math.max(1, max - 1))}…` : text);

/** The banner: the test ad's size, and every parameter that arrived, one per line as room allows. */
export function creativeSvg(q: AdQuery, decision: AdDecision, locale: Locale): string {
  const { width, height } = decision;
  const t = (key: string, params?: Record<string, string | number>) => translate(locale, `jstag.creative.${key}`, params);
  const missing = t('missing');
  const shown = (v: string | undefined) => (v === undefined || v === '' ? missing : v);
  const title = decision.fill ? t('title', { width, height }) : t('no_fill_title');
  const lines = [
    title,
    decision.fill ? t('unit', { unit: shown(q.unit) }) : t('no_fill', { floor: decision.floor ?? '', currency: decision.currency, bid: TEST_BID_CPM }),
    decision.fill ? t('floor', { floor: decision.floor ?? missing, currency: decision.currency, bid: TEST_BID_CPM }) : t('unit', { unit: shown(q.unit) }),
    `gdpr=${shown(q.gdpr)} · gdpr_consent=${shown(q.gdpr_consent)}`,
    `gpp=${shown(q.gpp)} · gpp_sid=${shown(q.gpp_sid)}`,
    `us_privacy=${shown(q.us_privacy)}`,
  ];
  const fontSize = Math.max(9, Math.min(14, Math.floor(height / 9)));
  const lineHeight = Math.round(fontSize * 1.35);
  const pad = Math.max(4, Math.min(12, Math.floor(height / 12)));
  const room = Math.max(1, Math.floor((height - 2 * pad) / lineHeight));
  const chars = Math.max(8, Math.floor((width - 2 * pad) / (fontSize * 0.6)));
  const text = lines
    .slice(0, room)
    .map((line, i) => {
      const weight = i === 0 ? ' font-weight="700"' : '';
      return `<text x="${pad}" y="${pad + fontSize + i * lineHeight}"${weight}>${escapeHtml(shorten(line, chars))}</text>`;
    })
    .join('');
  const background = decision.fill ? '#0b3d91' : '#5c5c5c';
  return (
    `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}" viewBox="0 0 ${width} ${height}" role="img" aria-label="${escapeHtml(lines.join('. '))}">` +
    `<title>${escapeHtml(title)}</title>` +
    `<rect width="100%" height="100%" fill="${background}"/><rect x="1" y="1" width="${width - 2}" height="${height - 2}" fill="none" stroke="#ffd600" stroke-width="2"/>` +
    `<g fill="#ffffff" font-family="DejaVu Sans Mono, Menlo, Consolas, monospace" font-size="${fontSize}">${text}</g></svg>`
  );
}

function origin(request: FastifyRequest): string {
  const host = request.host;
  const safe = /^[A-Za-z0-9.-]+(:\d{1,5})?$/.test(host) || /^\[[0-9A-Fa-f:.]+\](:\d{1,5})?$/.test(host) ? host : 'localhost';
  return `${request.protocol}://${safe}`;
}

/** Headers for what publishers' pages embed: any page may frame or read it. */
function embeddable(reply: FastifyReply, csp: string, cache = 'no-store'): void {
  reply.removeHeader('x-frame-options');
  reply.header('content-security-policy', csp).header('cross-origin-resource-policy', 'cross-origin').header('cache-control', cache);
}

function creativeHtml(q: AdQuery, decision: AdDecision, locale: Locale, clickHref: string): string {
  const svg = creativeSvg(q, decision, locale);
  const body = decision.fill ? `<a href="${escapeHtml(clickHref)}" target="_blank" rel="noopener">${svg}</a>` : svg;
  return (
    `<!doctype html><html lang="${locale}"><head><meta charset="utf-8"><title>${escapeHtml(translate(locale, 'jstag.creative.page_title'))}</title>` +
    '<style>html,body{margin:0;padding:0;overflow:hidden}a,svg{display:block}</style></head>' +
    `<body data-fill="${decision.fill ? 1 : 0}" data-width="${decision.width}" data-height="${decision.height}">${body}<script>${CREATIVE_SCRIPT}</script></body></html>`
  );
}

/** The creative's click: the trafficking ad server's click URL (when it is a URL), then ours. */
function clickHrefOf(request: FastifyRequest, q: AdQuery): string {
  const ours = `${origin(request)}${SERVE_CLICK_PATH}?unit=${encodeURIComponent(q.unit ?? '')}`;
  return q.click && isHttpUrl(q.click) ? `${q.click}${encodeURIComponent(ours)}` : ours;
}

// ---------------------------------------------------------------------------------------------
// The demo VAST

const TRACKED_EVENTS = ['start', 'firstQuartile', 'midpoint', 'thirdQuartile', 'complete', 'mute', 'unmute', 'pause', 'resume', 'skip', 'closeLinear'] as const;

const hms = (seconds: number) => {
  const s = Math.round(seconds);
  return [Math.floor(s / 3600), Math.floor((s % 3600) / 60), s % 60].map((n) => String(n).padStart(2, '0')).join(':');
};

export function demoVast(base: string, servingId: string): string {
  const cdata = (url: string) => `<![CDATA[${url.replace(/]]>/g, ']]]]><![CDATA[>')}]]>`;
  const track = (event: string) => cdata(`${base}${SERVE_TRACK_PATH}?e=${event}&ad=bo-demo-1&sid=${encodeURIComponent(servingId)}`);
  return [
    '<?xml version="1.0" encoding="UTF-8"?>',
    '<VAST version="4.2" xmlns="http://www.iab.com/VAST">',
    '  <Ad id="bo-demo-1">',
    '    <InLine>',
    '      <AdSystem version="1.0">Back Office test ad server</AdSystem>',
    `      <Error>${cdata(`${base}${SERVE_TRACK_PATH}?e=error&ad=bo-demo-1&code=[ERRORCODE]`)}</Error>`,
    `      <Impression id="bo-test-server">${track('impression')}</Impression>`,
    `      <AdServingId>${escapeHtml(servingId)}</AdServingId>`,
    '      <AdTitle>PlayOn demo video</AdTitle>',
    '      <Creatives>',
    '        <Creative id="bo-demo-creative-1" adId="bo-demo-1">',
    '          <Linear>',
    '            <TrackingEvents>',
    ...TRACKED_EVENTS.map((e) => `              <Tracking event="${e}">${track(e)}</Tracking>`),
    '            </TrackingEvents>',
    `            <Duration>${hms(DEMO_VIDEO_SECONDS)}</Duration>`,
    '            <MediaFiles>',
    `              <MediaFile delivery="progressive" type="video/mp4" width="${DEMO_VIDEO_SIZE.width}" height="${DEMO_VIDEO_SIZE.height}" codec="avc1.42C01E">${cdata(`${base}${SERVE_MEDIA_PATH}`)}</MediaFile>`,
    '            </MediaFiles>',
    '            <VideoClicks>',
    `              <ClickTracking id="bo-test-server">${track('click')}</ClickTracking>`,
    `              <ClickThrough id="bo-test-landing">${cdata(`${base}${SERVE_CLICK_PATH}?unit=playon-demo`)}</ClickThrough>`,
    '            </VideoClicks>',
    '          </Linear>',
    '          <UniversalAdId idRegistry="unknown">unknown</UniversalAdId>',
    '        </Creative>',
    '      </Creatives>',
    '    </InLine>',
    '  </Ad>',
    '</VAST>',
    '',
  ].join('\n');
}

/** A transparent 1x1 GIF. */
const PIXEL = Buffer.from('R0lGODlhAQABAIAAAAAAAP///yH5BAEAAAAALAAAAAABAAEAAAIBRAA7', 'base64');

// ---------------------------------------------------------------------------------------------
// Routes

export async function builderServeRoutes(root: FastifyInstance, _ctx: AppContext): Promise<void> {
  const app = root.withTypeProvider<ZodTypeProvider>();
  const tags = ['builders'];
  const PUBLIC = { auth: { public: true }, cors: ANY_ORIGIN } as const;
  const publicNote = 'Public (no token), any origin, framable by any page; at most ' + `${SERVE_RATE_LIMIT} requests a minute per address (then 429).`;

  app.addHook('onRequest', (request, reply, done) => {
    if (!request.url.startsWith('/v1/public/serve/')) return done();
    if (limited(request.ip, Date.now())) {
      reply.code(429).header('retry-after', '60').type('text/plain; charset=utf-8').header('cache-control', 'no-store').send('Too many requests');
      return;
    }
    done();
  });

  const adDescription =
    'Parameters as the JS tag sends them: unit, sizes (WxH,…; the first valid one is used), floor (decimal) and cur, gdpr, gdpr_consent, gpp, gpp_sid, us_privacy, click (a click URL prefix), cb, page. ' +
    `The test server bids ${TEST_BID_CPM} in any currency: a higher floor gets no ad. `;

  app.get(
    SERVE_AD_PATH,
    {
      config: PUBLIC,
      schema: {
        tags,
        security: [],
        summary: 'Test creative (HTML) for ad tags: an SVG banner of the requested size printing the unit, floor and consent parameters received',
        description:
          adDescription +
          `The page posts {type: '${AD_MESSAGE_TYPE}', fill, width, height} to its parent, so the async tag sizes its frame or shows its passback. ` +
          'With passback (an http(s) URL, the iframe tag) and no ad, a request made by a frame (Sec-Fetch-Dest: iframe) is redirected to it (302). ' +
          publicNote,
        querystring: serveAdQuerySchema,
      },
    },
    async (request, reply) => {
      const q = request.query;
      const decision = decide(q);
      logRequest('ad', { ...q });
      const framed = request.headers['sec-fetch-dest'] === 'iframe';
      if (!decision.fill && q.passback && isHttpUrl(q.passback) && framed) {
        embeddable(reply, CREATIVE_CSP);
        return reply.redirect(q.passback, 302);
      }
      embeddable(reply, CREATIVE_CSP);
      const locale = localeFromAcceptLanguage(request.headers['accept-language']);
      return reply.type('text/html; charset=utf-8').send(creativeHtml(q, decision, locale, clickHrefOf(request, q)));
    },
  );

  app.get(
    SERVE_AD_IMAGE_PATH,
    {
      config: PUBLIC,
      schema: {
        tags,
        security: [],
        summary: 'Test creative as an image (image tags and the noscript fallback): the same SVG banner',
        description: adDescription + publicNote,
        querystring: serveAdQuerySchema,
      },
    },
    async (request, reply) => {
      const q = request.query;
      logRequest('ad.svg', { ...q });
      embeddable(reply, "default-src 'none'; style-src 'unsafe-inline'");
      const locale = localeFromAcceptLanguage(request.headers['accept-language']);
      return reply.type('image/svg+xml; charset=utf-8').send(creativeSvg(q, decide(q), locale));
    },
  );

  app.get(
    SERVE_CLICK_PATH,
    {
      config: PUBLIC,
      schema: {
        tags,
        security: [],
        summary: 'The test landing page a click on a test creative opens (it says which unit was clicked)',
        description: publicNote,
        querystring: z.object({ unit: value }),
      },
    },
    async (request, reply) => {
      logRequest('click', { ...request.query });
      const locale = localeFromAcceptLanguage(request.headers['accept-language']);
      const t = (key: string, params?: Record<string, string>) => escapeHtml(translate(locale, `jstag.landing.${key}`, params));
      reply.header('content-security-policy', PAGE_CSP).header('cache-control', 'no-store');
      return reply
        .type('text/html; charset=utf-8')
        .send(
          `<!doctype html><html lang="${locale}"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><title>${t('title')}</title>` +
            '<style>body{font:16px/1.5 system-ui,sans-serif;margin:2rem;color:#1f1f1f;background:#fff}</style></head>' +
            `<body><main><h1>${t('title')}</h1><p>${t('text', { unit: request.query.unit ?? '' })}</p></main></body></html>`,
        );
    },
  );

  app.get(
    SERVE_TRACK_PATH,
    {
      config: PUBLIC,
      schema: {
        tags,
        security: [],
        summary: 'Tracking pixel of the demo VAST (impression, quartiles, clicks, errors): a 1x1 GIF',
        description: 'e (the event), ad, sid (AdServingId), code (VAST error code). ' + publicNote,
        querystring: z.object({ e: value, ad: value, sid: value, code: value }),
      },
    },
    async (request, reply) => {
      logRequest('track', { ...request.query });
      embeddable(reply, "default-src 'none'");
      return reply.type('image/gif').send(PIXEL);
    },
  );

  app.get(
    SERVE_VAST_DEMO_PATH,
    {
      config: PUBLIC,
      schema: {
        tags,
        security: [],
        summary: 'A VAST 4.2 InLine ad playing the demo video, with Impression, quartile and click trackers on this server',
        description: 'Valid against the IAB VAST 4.2 XSD. Consent parameters sent by the player are accepted and recorded. ' + publicNote,
        querystring: serveAdQuerySchema,
      },
    },
    async (request, reply) => {
      logRequest('vast', { ...request.query });
      embeddable(reply, "default-src 'none'");
      const servingId = `bo-demo-${Date.now().toString(36)}-${Math.random().toString(36).slice(2, 8)}`;
      return reply.type('application/xml; charset=utf-8').send(demoVast(origin(request), servingId));
    },
  );

  app.get(
    SERVE_MEDIA_PATH,
    {
      config: PUBLIC,
      schema: {
        tags,
        security: [],
        summary: `The demo video: ${DEMO_VIDEO_SECONDS} s of H.264 MP4, ${DEMO_VIDEO_SIZE.width}x${DEMO_VIDEO_SIZE.height}, written by the server (no file)`,
        description: 'Byte ranges (Range: bytes=a-b) are answered with 206. ' + publicNote,
      },
    },
    async (request, reply) => {
      logRequest('media', {});
      const video = demoVideo();
      embeddable(reply, "default-src 'none'", 'public, max-age=86400');
      reply.type('video/mp4').header('accept-ranges', 'bytes');
      const range = /^bytes=(\d*)-(\d*)$/.exec(String(request.headers.range ?? ''));
      if (range && (range[1] !== '' || range[2] !== '')) {
        const size = video.length;
        let start = range[1] === '' ? size - Number(range[2]) : Number(range[1]);
        let end = range[1] === '' || range[2] === '' ? size - 1 : Number(range[2]);
        start = Math.max(0, start);
        end = Math.min(end, size - 1);
        if (start > end) return reply.code(416).header('content-range', `bytes */${size}`).send();
        return reply.code(206).header('content-range', `bytes ${start}-${end}/${size}`).send(video.subarray(start, end + 1));
      }
      return reply.send(video);
    },
  );

  app.get(
    SERVE_PLAYON_PATH,
    {
      config: PUBLIC,
      schema: {
        tags,
        security: [],
        summary: 'PlayOn’s outstream video player script (the PlayOn builder’s embed loads it)',
        description: 'Reads the VAST, plays an mp4 or webm MediaFile muted when visible enough, fires Impression and quartile trackers, close and skip buttons. ' + publicNote,
      },
    },
    async (_request, reply) => {
      logRequest('playon', {});
      embeddable(reply, "default-src 'none'", 'public, max-age=300');
      return reply.type('text/javascript; charset=utf-8').send(playonPlayerScript());
    },
  );

  app.get(
    '/v1/builders/test-server/requests',
    {
      config: { auth: { permission: { resource: '/v1/builders', action: 'read' } } },
      schema: {
        tags,
        summary: 'The last requests the test ad server received (newest first), with their parameters',
        description: `At most ${SERVE_LOG_SIZE}, kept in this server's memory only. limit (1-${SERVE_LOG_SIZE}). ACL: read on /v1/builders.`,
        querystring: z.strictObject({ limit: z.coerce.number({ error: 'error.invalid_value' }).int('error.invalid_value').min(1, 'error.invalid_value').max(SERVE_LOG_SIZE, 'error.invalid_value').default(50) }),
      },
    },
    async (request) => ok({ items: serveRequests(request.query.limit) }),
  );
}
