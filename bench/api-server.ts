/**
 * The server process of the API bench (run with `node --import tsx`, started by bench/run.mjs).
 * In one process: the real app (buildApp on the database of DATA_DIR or DATABASE_URL, demo data
 * seeded) and a bare Fastify instance with one route and no plugins, the baseline. Prints one
 * line `BENCH_READY {"app":port,"bare":port,"admin":{"email","password"}}` when both listen (the
 * demo admin's sign-in, from the seed's own source); stops on SIGTERM.
 */
import Fastify from 'fastify';
import { buildApp } from '../apps/api/src/app.ts';
import { loadConfig } from '../apps/api/src/config.ts';
import { DEMO_MAILS } from '../apps/api/src/db/demo-data.ts';

const config = { ...loadConfig(process.env), port: 0, host: '127.0.0.1' };
const app = await buildApp(config);
const bare = Fastify({ logger: false });
bare.get('/bare', async () => ({ status: 'success', message: 'ok', data: { up: true } }));

await app.listen({ port: 0, host: '127.0.0.1' });
await bare.listen({ port: 0, host: '127.0.0.1' });

const portOf = (server: { server: { address(): unknown } }) => (server.server.address() as { port: number }).port;
// Written straight to stdout: the app's own logs share the stream, this marker line is parsed.
const admin = { email: DEMO_MAILS.admin, password: config.demoPassword };
process.stdout.write(`BENCH_READY ${JSON.stringify({ app: portOf(app), bare: portOf(bare), admin })}\n`);

let closing = false;
const shutdown = async () => {
  if (closing) return;
  closing = true;
  await Promise.allSettled([app.close(), bare.close()]);
  process.exit(0);
};
process.on('SIGTERM', () => void shutdown());
process.on('SIGINT', () => void shutdown());
