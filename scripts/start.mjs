#!/usr/bin/env node
// `npm start`: install what is missing, build what is stale, then run the server in the
// foreground (API + web app on one port). The server migrates the database and seeds the demo
// data on its first start; later starts keep the data.
import { existsSync } from 'node:fs';
import { buildApi, buildWeb } from './lib/build.mjs';
import { ensureDependencies } from './lib/deps.mjs';
import { API_SERVER, ROOT } from './lib/paths.mjs';
import { startChild } from './lib/proc.mjs';

async function main() {
  if (!(await ensureDependencies())) return 1;
  if (!(await buildWeb())) return 1;
  if (!(await buildApi())) return 1;
  if (!existsSync(API_SERVER)) {
    console.error(`The API build did not produce ${API_SERVER}.`);
    return 1;
  }

  // Same stdio, same environment; signals are forwarded by startChild's handlers.
  const server = startChild(process.execPath, [API_SERVER], { cwd: ROOT, stdio: 'inherit' });
  return await new Promise((resolve) => {
    server.once('error', (err) => {
      console.error(`Could not start the server: ${err.message}`);
      resolve(1);
    });
    server.once('exit', (code, signal) => resolve(code ?? (signal === 'SIGINT' || signal === 'SIGTERM' ? 0 : 1)));
  });
}

process.exitCode = await main();
