/**
 * The server process of the reports bench (run with `node --import tsx`): the real app on the
 * database of DATA_DIR or DATABASE_URL (already loaded by the bench). Prints
 * `REPORTS_BENCH_READY {"port":n}` when it listens; stops on SIGTERM.
 */
import { buildApp } from '../../apps/api/src/app.ts';
import { loadConfig } from '../../apps/api/src/config.ts';

const config = { ...loadConfig(process.env), port: 0, host: '127.0.0.1', jobs: false };
const app = await buildApp(config);
await app.listen({ port: 0, host: '127.0.0.1' });
const port = (app.server.address() as { port: number }).port;
process.stdout.write(`REPORTS_BENCH_READY ${JSON.stringify({ port })}\n`);

let closing = false;
const shutdown = async () => {
  if (closing) return;
  closing = true;
  await app.close().catch(() => undefined);
  process.exit(0);
};
process.on('SIGTERM', () => void shutdown());
process.on('SIGINT', () => void shutdown());
