/**
 * `npm run bench:creatives` — the resize benchmark of issue 26 ("Resizing one 4000×3000 JPEG to the
 * 15 most common IAB sizes: time and peak memory"). A photo-like 4000x3000 JPEG is made with sharp
 * (blurred noise under a gradient, so it weighs what a camera picture weighs, not a flat colour);
 * then, --runs times each after a warm-up:
 *   1. the image work alone (modules/creatives/resize.ts: inspectUpload + renderOutputs: header
 *      checks, one decode with shrink-on-load, 15 cover crops around the centre, JPEG q80, previews);
 *   2. the whole request: POST /v1/creatives/resize through the app (inject) on a seeded PGlite —
 *      multipart parsing, the checks, the resize, the files written to the storage adapter, the row
 *      and the audit entry — then GET of the zip.
 * Each part runs in its own child process, so what the parent did to make the picture does not
 * count. Measured: the first (cold) run's time, the median and max of the --runs warm runs, and the
 * child's RSS sampled every 10 ms: the peak, and the peak above the RSS just before the first run
 * (for the request: after the app is up and signed in). Results: bench/results/creatives.json.
 *
 *   npm run bench:creatives -- [--runs 5]
 */
import { COMMON_SIZE_IDS, resizeOptionsSchema, type ResizeResult } from '@backoffice/core/creatives';
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import sharp from 'sharp';
import { inspectUpload, renderOutputs } from '../../apps/api/src/modules/creatives/resize.ts';
import { benchApp, benchDatabase, option, ROOT } from '../resources/harness.ts';

const RUNS = Number(option('runs', '5'));
const CHILD = option('child', '');
const WORK = path.join(ROOT, '.tmp', 'bench-creatives');
const PHOTO = path.join(WORK, 'photo-4000x3000.jpg');
const mb = (bytes: number) => Number((bytes / 1048576).toFixed(1));
const options = resizeOptionsSchema.parse({ sizes: [...COMMON_SIZE_IDS], fit: 'cover', format: 'jpeg', quality: 80 });

interface Figures {
  cold_ms: number;
  median_ms: number;
  max_ms: number;
  rss_baseline_mb: number;
  rss_peak_mb: number;
  rss_over_baseline_mb: number;
  note?: string;
}

/** Runs `once` a first (cold) time and RUNS more, sampling the RSS every 10 ms from the baseline on. */
async function measure(once: () => Promise<void>): Promise<Figures> {
  const baseline = process.memoryUsage.rss();
  let peak = baseline;
  const timer = setInterval(() => {
    peak = Math.max(peak, process.memoryUsage.rss());
  }, 10);
  const times: number[] = [];
  try {
    for (let i = 0; i <= RUNS; i++) {
      const started = performance.now();
      await once();
      times.push(performance.now() - started);
      peak = Math.max(peak, process.memoryUsage.rss());
    }
  } finally {
    clearInterval(timer);
  }
  const warm = times.slice(1).sort((a, b) => a - b);
  return {
    cold_ms: Math.round(times[0]!),
    median_ms: Math.round(warm[Math.floor(warm.length / 2)]!),
    max_ms: Math.round(warm[warm.length - 1]!),
    rss_baseline_mb: mb(baseline),
    rss_peak_mb: mb(peak),
    rss_over_baseline_mb: mb(peak - baseline),
  };
}

if (CHILD === 'image') {
  // 1. The image work alone: the checks, one decode, 15 cover crops, JPEG q80, previews.
  const photo = fs.readFileSync(PHOTO);
  let outputBytes = 0;
  const figures = await measure(async () => {
    const out = await renderOutputs(photo, await inspectUpload(photo), options);
    if (out.length !== 15 || out.some((o) => o.width !== Number(o.size.split('x')[0]))) throw new Error('bench: wrong outputs');
    outputBytes = out.reduce((s, o) => s + o.bytes, 0);
  });
  console.log(JSON.stringify({ ...figures, note: `outputs ${Math.round(outputBytes / 1000)} kB in all` }));
} else if (CHILD === 'request') {
  // 2. The whole request through the app on a seeded PGlite, then the zip.
  const photo = fs.readFileSync(PHOTO);
  const storageDir = path.join(WORK, 'storage');
  fs.rmSync(storageDir, { recursive: true, force: true });
  const { database, config } = await benchDatabase(null, 'bench-creatives', true);
  const { app, headers } = await benchApp({ ...config, storageDir }, database);
  const form = new FormData();
  form.append('file', new Blob([photo], { type: 'image/jpeg' }), 'campaign-photo.jpg');
  form.append('options', JSON.stringify(options));
  const req = new Request('http://localhost/', { method: 'POST', body: form });
  const payload = Buffer.from(await req.arrayBuffer());
  const contentType = req.headers.get('content-type')!;
  const ids: string[] = [];
  const resize = await measure(async () => {
    const res = await app.inject({ method: 'POST', url: '/v1/creatives/resize', headers: { ...headers, 'content-type': contentType }, payload });
    if (res.statusCode !== 200) throw new Error(`bench: resize answered ${res.statusCode} ${res.body.slice(0, 200)}`);
    ids.push((res.json() as { data: ResizeResult }).data.id);
  });
  let n = 0;
  const zip = await measure(async () => {
    const res = await app.inject({ method: 'GET', url: `/v1/creatives/resize/${ids[n++ % ids.length]}.zip`, headers });
    if (res.statusCode !== 200) throw new Error(`bench: zip answered ${res.statusCode}`);
  });
  await app.close();
  await database.close();
  fs.rmSync(storageDir, { recursive: true, force: true });
  console.log(JSON.stringify({ resize, zip }));
} else {
  // The picture: 4000x3000, noise blurred into texture under a gradient and a light disc, JPEG q88.
  const W = 4000;
  const H = 3000;
  const gradient = Buffer.from(
    `<svg xmlns="http://www.w3.org/2000/svg" width="${W}" height="${H}"><defs><linearGradient id="g" x1="0" y1="0" x2="1" y2="1">` +
      `<stop offset="0" stop-color="#f08c28" stop-opacity="0.6"/><stop offset="1" stop-color="#1e6e8c" stop-opacity="0.6"/></linearGradient></defs>` +
      `<rect width="100%" height="100%" fill="url(#g)"/><circle cx="${W * 0.3}" cy="${H * 0.45}" r="${H * 0.25}" fill="#ffffff" fill-opacity="0.35"/></svg>`,
  );
  const noise = await sharp({ create: { width: W, height: H, channels: 3, background: '#808080', noise: { type: 'gaussian', mean: 128, sigma: 60 } } })
    .png()
    .toBuffer();
  fs.mkdirSync(WORK, { recursive: true });
  fs.writeFileSync(PHOTO, await sharp(noise).blur(1.2).composite([{ input: gradient }]).jpeg({ quality: 88 }).toBuffer());
  const bytes = fs.statSync(PHOTO).size;
  const machine = `${os.cpus().length} CPUs (${os.cpus()[0]?.model ?? '?'}), load average ${os.loadavg().map((x) => x.toFixed(1)).join(' ')}; libvips ${sharp.versions.vips}`;
  console.log(`input: ${W}x${H} JPEG, ${mb(bytes)} MiB; ${options.sizes.length} sizes: ${options.sizes.join(', ')}`);
  console.log(`machine: ${machine}`);
  const child = (kind: string) => {
    const res = spawnSync(process.execPath, [...process.execArgv, fileURLToPath(import.meta.url), '--child', kind, '--runs', String(RUNS)], { encoding: 'utf8', cwd: ROOT });
    if (res.status !== 0) throw new Error(`bench child ${kind} failed: ${res.stderr}`);
    return JSON.parse(res.stdout.trim().split('\n').pop()!) as never;
  };
  const line = (what: string, f: Figures) =>
    console.log(`${what.padEnd(14)} cold ${f.cold_ms} ms; warm median ${f.median_ms} ms, max ${f.max_ms} ms; RSS ${f.rss_baseline_mb} MB before, peak ${f.rss_peak_mb} MB (+${f.rss_over_baseline_mb} MB)${f.note ? `; ${f.note}` : ''}`);
  const image = child('image') as Figures;
  line('image work:', image);
  const { resize, zip } = child('request') as { resize: Figures; zip: Figures };
  line('POST resize:', resize);
  line('GET zip:', zip);
  const out = path.join(ROOT, 'bench', 'results', 'creatives.json');
  fs.mkdirSync(path.dirname(out), { recursive: true });
  fs.writeFileSync(out, `${JSON.stringify({ at: new Date().toISOString(), machine, runs: RUNS, input: { width: W, height: H, bytes }, sizes: options.sizes, image, resize, zip }, null, 2)}\n`);
  console.log(`written ${path.relative(ROOT, out)}`);
}
