/**
 * Vite build of the web app (output apps/web/dist, served by the API with an SPA fallback).
 *
 * Environment (build time):
 * - VITE_REST_URL: the API's base URL when it is not the origin serving the app (default '').
 * - VITE_ANALYTICS_URL: optional page-view beacon URL (always off on localhost).
 * - VITE_COMPANY_DOMAINS: company mail domains, the first one primary (default: core's list).
 * - API_PROXY_TARGET: where `vite` (dev server) proxies /v1 (default http://localhost:3000).
 *
 * Code splitting: the entry holds React, the router, i18n, the session store and antd's
 * ConfigProvider; the sign-in page, the shell and every screen are lazy chunks, so the sign-in
 * route ships only what it needs (target: under 300 KB of gzip JavaScript). A signed-in first
 * load asks for the shell's and the home's chunks with the HTML (`bootPreload` below). antd's
 * styles for the sign-in page, the shell and the home are rendered at build time into the entry's
 * stylesheet (`antdStaticStyles`, build/antd-static-styles.ts).
 *
 * Every text file of the build is also written pre-compressed (`.br` at brotli's highest quality,
 * `.gz` at gzip level 9); the API serves those to browsers that accept them (@fastify/static
 * `preCompressed`), about a quarter of the bytes, with no compression work per request.
 */
import react from '@vitejs/plugin-react';
import fs from 'node:fs/promises';
import { createRequire } from 'node:module';
import path from 'node:path';
import { promisify } from 'node:util';
import zlib from 'node:zlib';
import type { OutputBundle, OutputChunk } from 'rollup';
import { defineConfig, type Plugin } from 'vite';
import { antdStaticStyles } from './build/antd-static-styles.ts';
import { LIVE_SESSION_COOKIE, SESSION_STORAGE_KEY } from './src/lib/session-keys.ts';

const brotli = promisify(zlib.brotliCompress);
const gzip = promisify(zlib.gzip);

/** Writes `<file>.br` and `<file>.gz` next to every compressible file of the build. */
function precompress(): Plugin {
  let outDir = 'dist';
  return {
    name: 'backoffice-precompress',
    apply: 'build',
    configResolved(config) {
      outDir = path.resolve(config.root, config.build.outDir);
    },
    async closeBundle() {
      const files = (await fs.readdir(outDir, { recursive: true, withFileTypes: true }))
        .filter((e) => e.isFile() && /\.(js|css|html|svg|json|txt|webmanifest)$/.test(e.name))
        .map((e) => path.join(e.parentPath, e.name));
      await Promise.all(
        files.map(async (file) => {
          const body = await fs.readFile(file);
          if (body.length < 1024) return;
          const [br, gz] = await Promise.all([
            brotli(body, { params: { [zlib.constants.BROTLI_PARAM_QUALITY]: 11, [zlib.constants.BROTLI_PARAM_SIZE_HINT]: body.length } }),
            gzip(body, { level: 9 }),
          ]);
          await Promise.all([fs.writeFile(`${file}.br`, br), fs.writeFile(`${file}.gz`, gz)]);
        }),
      );
    },
  };
}

/** The lazy modules a signed-in first load needs at once, and the screen that needs them. */
const BOOT_MODULES = {
  shell: ['/src/shell/shell-layout.tsx', '/src/shell/crash-screen.tsx'],
  home: ['/src/features/dashboard/dashboard-page.tsx'],
} as const;

/**
 * Starts downloading the lazy code of the shell and of the home with the HTML, not after the
 * entry has run. Without it, those chunks were requested only once the entry had been evaluated
 * (~300 ms into a cold load) and arrived ~300 ms later. A tiny classic script
 * (`assets/boot-preload-[hash].js`, so the CSP's script-src 'self' holds; not async, so it has
 * always run before the entry) adds `<link rel="modulepreload">` for them when local storage
 * holds a signed-in session: the shell's chunks on any page but the sign-in page, the home's on
 * `/{lang}` and `/`. Signed out, or on
 * `/{lang}/login`, it adds nothing, so the sign-in page ships no more than before. When it
 * preloads, it also makes the page's first Intl call (ICU's data: 25-40 ms, more on a busy host;
 * the shell needs it at once for the time zone and numbers) in a task of its own while the entry
 * downloads, instead of inside the entry's run.
 */
function bootPreload(): Plugin {
  return {
    name: 'backoffice-boot-preload',
    apply: 'build',
    generateBundle: {
      order: 'post',
      handler(_options, bundle: OutputBundle) {
        const chunks = Object.values(bundle).filter((o): o is OutputChunk => o.type === 'chunk');
        const byFile = new Map(chunks.map((c) => [c.fileName, c]));
        const closure = (roots: OutputChunk[]): Set<OutputChunk> => {
          const seen = new Set<OutputChunk>();
          const visit = (c: OutputChunk | undefined) => {
            if (!c || seen.has(c)) return;
            seen.add(c);
            for (const f of c.imports) visit(byFile.get(f));
          };
          roots.forEach(visit);
          return seen;
        };
        const entry = closure(chunks.filter((c) => c.isEntry));
        const filesOf = (modules: readonly string[], skip: Set<string>): string[] => {
          const roots = modules.map((m) => {
            const c = chunks.find((x) => x.moduleIds.some((id) => id.endsWith(m)));
            if (!c) this.error(`boot preload: no chunk holds ${m}`);
            return c;
          });
          const files = new Set<string>();
          for (const c of closure(roots)) {
            if (entry.has(c)) continue;
            for (const f of [c.fileName, ...(c.viteMetadata?.importedCss ?? [])]) if (!skip.has(f)) files.add(`/${f}`);
          }
          return [...files];
        };
        const shell = filesOf(BOOT_MODULES.shell, new Set());
        const home = filesOf(BOOT_MODULES.home, new Set(shell.map((f) => f.slice(1))));
        // As the store does (restoreSession, isTokenExpired): no "remember" and the browser was
        // closed, or an expired token, means the sign-in page comes next, which needs none of it.
        const source = String.raw`(function () {
  try {
    var s = JSON.parse(localStorage.getItem(${JSON.stringify(SESSION_STORAGE_KEY)}) || 'null');
    var u = s && s.state && s.state.user;
    if (!u || typeof u.token !== 'string') return;
    if (!s.state.remember && !new RegExp('(^|; )' + ${JSON.stringify(LIVE_SESSION_COOKIE)} + '=1(;|$)').test(document.cookie)) return;
    if (typeof u.exp === 'number' && u.exp * 1000 <= Date.now()) return;
    var p = location.pathname.replace(/\/+$/, '');
    if (/^\/[a-z]{2}\/login$/.test(p) || p === '/clean') return;
    var files = ${JSON.stringify(shell)};
    if (p === '' || /^\/[a-z]{2}$/.test(p)) files = files.concat(${JSON.stringify(home)});
    for (var i = 0; i < files.length; i++) {
      var l = document.createElement('link');
      var css = /\.css$/.test(files[i]);
      l.rel = css ? 'preload' : 'modulepreload';
      if (css) l.as = 'style';
      l.crossOrigin = '';
      l.href = files[i];
      document.head.appendChild(l);
    }
    setTimeout(function () {
      try {
        new Intl.NumberFormat().format(1);
        Intl.DateTimeFormat().resolvedOptions();
      } catch (e) {}
    }, 0);
  } catch (e) {}
})();
`;
        const ref = this.emitFile({ type: 'asset', name: 'boot-preload.js', source });
        const html = bundle['index.html'];
        if (!html || html.type !== 'asset' || typeof html.source !== 'string') return this.error('boot preload: no index.html');
        const withScript = html.source.replace('</title>', `</title>\n    <script src="/${this.getFileName(ref)}"></script>`);
        if (withScript === html.source) return this.error('boot preload: index.html has no </title> to put the script after');
        html.source = withScript;
      },
    },
  };
}

/**
 * react-router's export map names only its development build (remix-run/react-router#12437,
 * #14102: dev warnings on, extra checks); a production build uses the production files it ships.
 */
const reactRouterDist = path.join(path.dirname(createRequire(import.meta.url).resolve('react-router/package.json')), 'dist', 'production');
const productionAliases = [
  { find: /^react-router$/, replacement: path.join(reactRouterDist, 'index.mjs') },
  { find: /^react-router\/dom$/, replacement: path.join(reactRouterDist, 'dom-export.mjs') },
];

export default defineConfig(({ command }) => ({
  plugins: [react(), antdStaticStyles(), bootPreload(), precompress()],
  resolve: { alias: command === 'build' ? productionAliases : [] },
  server: {
    port: 5173,
    proxy: {
      '/v1': { target: process.env.API_PROXY_TARGET ?? 'http://localhost:3000', changeOrigin: true },
    },
  },
  preview: {
    proxy: {
      '/v1': { target: process.env.API_PROXY_TARGET ?? 'http://localhost:3000', changeOrigin: true },
    },
  },
  build: {
    outDir: 'dist',
    emptyOutDir: true,
    target: 'es2022',
    sourcemap: false,
    chunkSizeWarningLimit: 900,
    rollupOptions: {
      output: {
        // Chunks under 20 kB (before compression) are merged into a chunk that imports them
        // where that changes no module's order: Rollup split the shell into ~20 files, many of a
        // few hundred bytes (one icon each), and every file is one more request on a cold load.
        experimentalMinChunkSize: 20_000,
        manualChunks(id) {
          if (!id.includes('node_modules')) return undefined;
          // Long-lived vendor chunks that every route needs anyway.
          if (/node_modules\/(react|react-dom|scheduler)\//.test(id)) return 'react';
          if (/node_modules\/(react-router|cookie|set-cookie-parser)\//.test(id)) return 'router';
          if (/node_modules\/(i18next|react-i18next|html-parse-stringify|void-elements)\//.test(id)) return 'i18n';
          if (/node_modules\/(@tanstack|zustand)\//.test(id)) return 'state';
          return undefined;
        },
      },
    },
  },
}));
