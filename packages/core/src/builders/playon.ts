/**
 * The PlayOn builders (`/utils/playon-builders`; docs/decisions/040-js-tag-and-playon-builders.md):
 * the embed of PlayOn, the company's outstream video player — a `<div class="bo-playon">` whose
 * data-* attributes carry the configuration, and the async player script the ad server serves
 * (`/v1/public/serve/playon.js`, apps/api/src/modules/builders/playon-player.ts). The script reads
 * the VAST, plays an mp4 or webm MediaFile muted once enough of the player is visible, fires the
 * Impression and quartile trackers, and offers close and skip buttons.
 *
 * Placements: in-article (the player moves itself after paragraph N of the article around it),
 * sticky corner (fixed in a corner of the window), in-banner (in place, the banner's size).
 */
import { z } from 'zod';
import type { BuilderDefinition, BuilderIssue } from './common.ts';
import {
  SERVE_PLAYON_PATH,
  SERVE_VAST_DEMO_PATH,
  adUnitIssues,
  attributeLines,
  consentAttributes,
  consentConfigSchema,
  consentFromAttributes,
  consentIssues,
  editedIssue,
  escapeHtml,
  fileSlug,
  isHttpUrl,
  readRootAttributes,
  serverBase,
  serverUrlIssues,
  type ConsentConfig,
} from './jstag.ts';

export const PLAYON_PLACEMENTS = ['in_article', 'sticky', 'in_banner'] as const;
export type PlayOnPlacement = (typeof PLAYON_PLACEMENTS)[number];
export const PLAYON_CORNERS = ['bottom_right', 'bottom_left', 'top_right', 'top_left'] as const;
export type PlayOnCorner = (typeof PLAYON_CORNERS)[number];

export const PLAYER_WIDTH_MIN = 200;
export const PLAYER_WIDTH_MAX = 1920;
export const PLAYER_HEIGHT_MIN = 112;
export const PLAYER_HEIGHT_MAX = 1080;
export const PARAGRAPH_MAX = 50;
export const CLOSE_AFTER_MAX = 60;
export const SKIP_AFTER_MAX = 60;
export const FREQUENCY_CAP_MAX = 100;
export const VAST_URL_MAX = 2000;

export interface PlayOnConfig {
  /** The ad server's origin (serves playon.js); empty for this server. */
  server_url: string;
  ad_unit: string;
  placement: PlayOnPlacement;
  /** In-article: after this paragraph (1-based). */
  paragraph: number;
  /** Sticky: the window's corner. */
  corner: PlayOnCorner;
  width: number;
  height: number;
  /** The VAST tag URL; empty for the test ad server's demo VAST. */
  vast_url: string;
  autoplay_muted: boolean;
  /** Seconds before the close button shows; null for none. */
  close_after_sec: number | null;
  /** Plays per visitor and day; null for no cap. */
  frequency_cap: number | null;
  /** Share of the player that must be visible to play (and that pauses it below), in %. */
  viewability_pct: number;
  skippable: boolean;
  skip_after_sec: number;
  /** #RRGGBB */
  accent_color: string;
  background_color: string;
  consent: ConsentConfig;
}

const text = (max: number) => z.string({ error: 'error.invalid_type' }).max(max, 'error.too_long');
const int = z.number({ error: 'error.invalid_type' }).int('error.invalid_value');

export const playOnConfigSchema: z.ZodType<PlayOnConfig> = z.strictObject({
  server_url: text(500),
  ad_unit: text(500),
  placement: z.enum(PLAYON_PLACEMENTS, { error: 'error.invalid_value' }),
  paragraph: int,
  corner: z.enum(PLAYON_CORNERS, { error: 'error.invalid_value' }),
  width: int,
  height: int,
  vast_url: text(VAST_URL_MAX * 2),
  autoplay_muted: z.boolean({ error: 'error.invalid_type' }),
  close_after_sec: int.nullable(),
  frequency_cap: int.nullable(),
  viewability_pct: int,
  skippable: z.boolean({ error: 'error.invalid_type' }),
  skip_after_sec: int,
  accent_color: text(20),
  background_color: text(20),
  consent: consentConfigSchema,
});

const COLOR = /^#[0-9a-fA-F]{6}$/;

const issue = (path: string, key: string, params?: Record<string, string | number>, severity: 'error' | 'warning' = 'error'): BuilderIssue => ({
  severity,
  path,
  key,
  ...(params ? { params } : {}),
  source: 'rules',
});

function between(path: string, value: number, min: number, max: number, key = 'playon.range'): BuilderIssue[] {
  return value < min || value > max ? [issue(path, key, { min, max })] : [];
}

/** Every rule of a PlayOn configuration, at its field's path. */
export function playOnIssues(config: PlayOnConfig): BuilderIssue[] {
  const out: BuilderIssue[] = [...serverUrlIssues(config.server_url, 'playon'), ...adUnitIssues(config.ad_unit, 'playon')];
  if (config.placement === 'in_article') out.push(...between('paragraph', config.paragraph, 1, PARAGRAPH_MAX));
  out.push(...between('width', config.width, PLAYER_WIDTH_MIN, PLAYER_WIDTH_MAX), ...between('height', config.height, PLAYER_HEIGHT_MIN, PLAYER_HEIGHT_MAX));
  const vast = config.vast_url.trim();
  if (vast !== '' && (vast.length > VAST_URL_MAX || !isHttpUrl(vast))) out.push(issue('vast_url', 'playon.vast_url.invalid'));
  if (config.close_after_sec !== null) out.push(...between('close_after_sec', config.close_after_sec, 0, CLOSE_AFTER_MAX));
  if (config.frequency_cap !== null) out.push(...between('frequency_cap', config.frequency_cap, 1, FREQUENCY_CAP_MAX));
  out.push(...between('viewability_pct', config.viewability_pct, 0, 100));
  if (config.skippable) out.push(...between('skip_after_sec', config.skip_after_sec, 0, SKIP_AFTER_MAX));
  if (!COLOR.test(config.accent_color)) out.push(issue('accent_color', 'playon.color.invalid'));
  if (!COLOR.test(config.background_color)) out.push(issue('background_color', 'playon.color.invalid'));
  if (!config.autoplay_muted && config.viewability_pct > 0) out.push(issue('autoplay_muted', 'playon.autoplay.click_to_play', undefined, 'warning'));
  if (config.placement === 'sticky' && config.close_after_sec === null) out.push(issue('close_after_sec', 'playon.close.sticky_needs_close', undefined, 'warning'));
  out.push(...consentIssues(config.consent, true));
  return out;
}

/** The VAST URL the player reads: the configured one, or the ad server's demo VAST. */
export function playOnVastUrl(config: PlayOnConfig): string {
  const vast = config.vast_url.trim();
  return vast !== '' ? vast : `${serverBase(config.server_url)}${SERVE_VAST_DEMO_PATH}`;
}

function rootAttributes(config: PlayOnConfig): [string, string | undefined][] {
  const vast = config.vast_url.trim();
  return [
    ['class', 'bo-playon'],
    ['data-bo-playon', config.placement],
    ['data-server', serverBase(config.server_url) || undefined],
    ['data-unit', config.ad_unit.trim()],
    ['data-paragraph', config.placement === 'in_article' ? String(config.paragraph) : undefined],
    ['data-corner', config.placement === 'sticky' ? config.corner : undefined],
    ['data-width', String(config.width)],
    ['data-height', String(config.height)],
    ['data-vast', vast === '' ? undefined : vast],
    ['data-autoplay', config.autoplay_muted ? 'muted' : 'click'],
    ['data-close-after', config.close_after_sec === null ? undefined : String(config.close_after_sec)],
    ['data-frequency-cap', config.frequency_cap === null ? undefined : String(config.frequency_cap)],
    ['data-viewability', String(config.viewability_pct)],
    ['data-skip-after', config.skippable ? String(config.skip_after_sec) : undefined],
    ['data-accent', config.accent_color],
    ['data-background', config.background_color],
    ...consentAttributes(config.consent),
  ];
}

const PLACEMENT_COMMENTS: Record<PlayOnPlacement, string> = {
  in_article: '<!-- PlayOn outstream video, in-article: paste it inside the article; the player moves after the chosen paragraph. -->',
  sticky: '<!-- PlayOn outstream video, sticky corner: paste it anywhere in the page body. -->',
  in_banner: '<!-- PlayOn outstream video, in-banner: paste it where the banner shows. -->',
};

/** The player embed for a configuration. */
export function renderPlayOn(config: PlayOnConfig): string {
  const script = `${serverBase(config.server_url)}${SERVE_PLAYON_PATH}`;
  return [
    PLACEMENT_COMMENTS[config.placement],
    `<div\n${attributeLines(rootAttributes(config), '  ')}></div>`,
    `<script async src="${escapeHtml(script)}"></script>`,
    '',
  ].join('\n');
}

const number = (value: string | undefined, fallback: number) => (value !== undefined && /^-?\d{1,9}$/.test(value) ? Number(value) : fallback);

function parsePlayOn(code: string): { config?: PlayOnConfig; issues: BuilderIssue[] } {
  const root = readRootAttributes(code, 'div', 'bo-playon', 'playon');
  if (!root.attributes) return { issues: root.issues };
  const a = root.attributes;
  const placement = (PLAYON_PLACEMENTS as readonly string[]).includes(a['data-bo-playon'] ?? '') ? (a['data-bo-playon'] as PlayOnPlacement) : null;
  if (!placement) return { issues: [{ severity: 'error', path: 'placement', key: 'playon.parse.placement', line: 1, column: 1, source: 'syntax' }] };
  const defaults = playonBuilder.defaults();
  const corner = (PLAYON_CORNERS as readonly string[]).includes(a['data-corner'] ?? '') ? (a['data-corner'] as PlayOnCorner) : defaults.corner;
  const config: PlayOnConfig = {
    server_url: a['data-server'] ?? '',
    ad_unit: a['data-unit'] ?? '',
    placement,
    paragraph: number(a['data-paragraph'], defaults.paragraph),
    corner,
    width: number(a['data-width'], defaults.width),
    height: number(a['data-height'], defaults.height),
    vast_url: a['data-vast'] ?? '',
    autoplay_muted: a['data-autoplay'] !== 'click',
    close_after_sec: a['data-close-after'] === undefined ? null : number(a['data-close-after'], 0),
    frequency_cap: a['data-frequency-cap'] === undefined ? null : number(a['data-frequency-cap'], 1),
    viewability_pct: number(a['data-viewability'], defaults.viewability_pct),
    skippable: a['data-skip-after'] !== undefined,
    skip_after_sec: number(a['data-skip-after'], defaults.skip_after_sec),
    accent_color: a['data-accent'] ?? defaults.accent_color,
    background_color: a['data-background'] ?? defaults.background_color,
    consent: consentFromAttributes(a),
  };
  const edited = editedIssue(code, renderPlayOn(config), 'playon');
  return { config, issues: edited ? [edited] : [] };
}

const EXAMPLES: { name: string; config: PlayOnConfig }[] = [
  {
    name: 'In-article 640x360 after paragraph 3, TCF and GPP from the CMP',
    config: {
      server_url: '',
      ad_unit: 'diariolevante_article_outstream',
      placement: 'in_article',
      paragraph: 3,
      corner: 'bottom_right',
      width: 640,
      height: 360,
      vast_url: '',
      autoplay_muted: true,
      close_after_sec: 5,
      frequency_cap: 3,
      viewability_pct: 50,
      skippable: true,
      skip_after_sec: 5,
      accent_color: '#e4007c',
      background_color: '#000000',
      consent: { tcf: 'cmp', gpp: 'cmp', us_privacy: 'off', vendor_id: 1126, timeout_ms: 500 },
    },
  },
  {
    name: 'Sticky bottom-right 400x225, close after 3 s',
    config: {
      server_url: '',
      ad_unit: 'motorpasion_sticky_video',
      placement: 'sticky',
      paragraph: 3,
      corner: 'bottom_right',
      width: 400,
      height: 225,
      vast_url: '',
      autoplay_muted: true,
      close_after_sec: 3,
      frequency_cap: 2,
      viewability_pct: 50,
      skippable: false,
      skip_after_sec: 5,
      accent_color: '#1677ff',
      background_color: '#101820',
      consent: { tcf: 'cmp', gpp: 'off', us_privacy: 'cmp', vendor_id: null, timeout_ms: 800 },
    },
  },
  {
    name: 'In-banner 300x250 with a partner VAST tag',
    config: {
      server_url: '',
      ad_unit: 'recetasgalicia_sidebar_mpu_video',
      placement: 'in_banner',
      paragraph: 3,
      corner: 'bottom_right',
      width: 300,
      height: 250,
      vast_url: 'https://vast.helios-dsp.example/v4/tag?pid=bo-7781&cb=[CACHEBUSTING]',
      autoplay_muted: true,
      close_after_sec: null,
      frequency_cap: null,
      viewability_pct: 50,
      skippable: true,
      skip_after_sec: 6,
      accent_color: '#f5a623',
      background_color: '#000000',
      consent: { tcf: 'macro', gpp: 'off', us_privacy: 'off', vendor_id: 1126, timeout_ms: 500 },
    },
  },
];

export const playonBuilder: BuilderDefinition<PlayOnConfig> = {
  kind: 'playon',
  subjects: ['ad_unit', 'publisher'],
  configSchema: playOnConfigSchema,
  defaults: () => ({
    server_url: '',
    ad_unit: '',
    placement: 'in_article',
    paragraph: 3,
    corner: 'bottom_right',
    width: 640,
    height: 360,
    vast_url: '',
    autoplay_muted: true,
    close_after_sec: 5,
    frequency_cap: null,
    viewability_pct: 50,
    skippable: true,
    skip_after_sec: 5,
    accent_color: '#e4007c',
    background_color: '#000000',
    consent: { tcf: 'cmp', gpp: 'cmp', us_privacy: 'off', vendor_id: null, timeout_ms: 500 },
  }),
  render: (config) => ({
    code: renderPlayOn(config),
    language: 'html',
    filename: `playon-${fileSlug(config.ad_unit)}.html`,
    mime: 'text/html',
    issues: playOnIssues(config),
  }),
  parse: parsePlayOn,
  examples: () => structuredClone(EXAMPLES),
};
