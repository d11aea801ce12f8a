/**
 * CORS and security headers: the libraries (@fastify/cors with an array of origins,
 * @fastify/helmet) against hand-written hooks and against nothing, on one tiny route, through
 * real HTTP (autocannon). Each variant runs in its own child process so that the server's CPU
 * time per request can be read from /proc; variants alternate over several rounds to spread the
 * host's noise. Run: node --import tsx bench/plumbing/cors-helmet.ts [seconds per run] [rounds]
 * (docs/decisions/007).
 */
import autocannon from 'autocannon';
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import { fileURLToPath } from 'node:url';

const ORIGIN = 'http://localhost:5173';
const VARIANTS = ['none', 'hand-written', 'libraries', '@fastify/cors', 'cors callback', '@fastify/helmet'] as const;
type Variant = (typeof VARIANTS)[number];

async function serve(variant: Variant) {
  const { default: Fastify } = await import('fastify');
  const app = Fastify({ logger: false });
  const origins = [ORIGIN, 'http://localhost:3000'];
  if (variant === 'hand-written') {
    // The hooks this project used before (git show 17131e9:apps/api/src/plugins/cors.ts and
    // security-headers.ts): headers computed once, set in one call per request.
    const helmet = (await import('helmet')).default;
    const headers: Record<string, string> = {};
    const res = { setHeader: (n: string, v: string) => (headers[n.toLowerCase()] = String(v)), removeHeader: (n: string) => delete headers[n.toLowerCase()], getHeader: (n: string) => headers[n.toLowerCase()] };
    helmet()({ headers: {} } as never, res as never, () => undefined);
    const allowed = new Set(origins);
    app.addHook('onRequest', (request, reply, done) => {
      reply.headers(headers);
      reply.header('vary', 'Origin');
      const origin = request.headers.origin;
      if (origin !== undefined && allowed.has(origin)) {
        reply.header('access-control-allow-origin', origin);
        reply.header('access-control-expose-headers', 'content-disposition, x-request-id');
      }
      done();
    });
  }
  if (variant === 'libraries' || variant === '@fastify/helmet') await app.register((await import('@fastify/helmet')).default, { global: true });
  if (variant === 'libraries' || variant === '@fastify/cors') {
    await app.register((await import('@fastify/cors')).default, { origin: origins, exposedHeaders: ['content-disposition', 'x-request-id'], maxAge: 600 });
  }
  if (variant === 'cors callback') {
    // How the project used @fastify/cors before it wrote its own hook: the library's slow path.
    const allowed = new Set(origins);
    await app.register((await import('@fastify/cors')).default, {
      origin: (origin, cb) => cb(null, origin !== undefined && allowed.has(origin)),
      exposedHeaders: ['content-disposition', 'x-request-id'],
      maxAge: 600,
    });
  }
  app.get('/v1/ping', async () => ({ status: 'success', message: 'ok', data: { up: true } }));
  await app.listen({ port: 0, host: '127.0.0.1' });
  const port = (app.server.address() as { port: number }).port;
  process.stdout.write(`READY ${port}\n`);
}

function cpuSeconds(pid: number): number {
  const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
  const f = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return (Number(f[11]) + Number(f[12])) / 100;
}

async function measure(variant: Variant, seconds: number) {
  const child = spawn(process.execPath, ['--import', 'tsx', fileURLToPath(import.meta.url), '--serve', variant], { stdio: ['ignore', 'pipe', 'inherit'] });
  const port = await new Promise<number>((resolve) => child.stdout.on('data', (d: Buffer) => resolve(Number(/READY (\d+)/.exec(String(d))?.[1]))));
  const url = `http://127.0.0.1:${port}/v1/ping`;
  await autocannon({ url, connections: 20, duration: 2, headers: { origin: ORIGIN } });
  const cpu0 = cpuSeconds(child.pid!);
  const r = await autocannon({ url, connections: 20, duration: seconds, headers: { origin: ORIGIN } });
  const cpu1 = cpuSeconds(child.pid!);
  child.kill();
  return { variant, reqPerSec: Math.round(r.requests.average), cpuMicrosPerReq: Math.round(((cpu1 - cpu0) * 1e6) / r.requests.total), non2xx: r.non2xx };
}

if (process.argv[2] === '--serve') {
  await serve(process.argv[3] as Variant);
} else {
  const seconds = Number(process.argv[2] ?? 5);
  const rounds = Number(process.argv[3] ?? 3);
  const results = Object.fromEntries(VARIANTS.map((v) => [v, { reqPerSec: [] as number[], cpu: [] as number[] }])) as Record<Variant, { reqPerSec: number[]; cpu: number[] }>;
  for (let round = 1; round <= rounds; round++) {
    for (const variant of VARIANTS) {
      const m = await measure(variant, seconds);
      if (m.non2xx) throw new Error(`${variant}: ${m.non2xx} non-2xx answers`);
      results[variant].reqPerSec.push(m.reqPerSec);
      results[variant].cpu.push(m.cpuMicrosPerReq);
      console.log(`round ${round} ${variant.padEnd(15)} ${m.reqPerSec} req/s, ${m.cpuMicrosPerReq} µs CPU/req`);
    }
  }
  const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
  console.log('\nvariant       req/s (median)  server CPU µs/req (median, all runs)');
  for (const v of VARIANTS) console.log(`${v.padEnd(15)}  ${String(median(results[v].reqPerSec)).padStart(14)}  ${median(results[v].cpu)} (${results[v].cpu.join(', ')})`);
}
