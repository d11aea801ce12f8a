// Bundles the API (and @backoffice/core sources) into dist/ with esbuild; npm packages stay external.
import { build } from 'esbuild';
import fs from 'node:fs';

const pkg = JSON.parse(fs.readFileSync(new URL('./package.json', import.meta.url), 'utf8'));
const external = Object.keys(pkg.dependencies ?? {}).filter((d) => !d.startsWith('@backoffice/'));

const entries = ['src/server.ts', ...['src/cli-user.ts', 'src/cli-data.ts', 'src/cli-verifactu.ts'].filter((f) => fs.existsSync(f))];
await build({
  entryPoints: entries,
  // API_OUTDIR: a private build (a helper's e2e run) that leaves the shared dist/ alone; it must be
  // inside the repository so the bundle's external packages resolve from its node_modules.
  outdir: process.env.API_OUTDIR ?? 'dist',
  bundle: true,
  platform: 'node',
  format: 'esm',
  target: 'node20',
  sourcemap: true,
  external: [...external, ...external.map((d) => `${d}/*`)],
  banner: { js: "import { createRequire as __cr } from 'node:module'; const require = __cr(import.meta.url);" },
  logLevel: 'warning',
});
console.log(`api: built ${entries.join(', ')} -> ${process.env.API_OUTDIR ?? 'dist'}/`);
