/**
 * Vite build of the web app (output apps/web/dist, served by the API with an SPA fallback).
 *
 * Environment (build time):
 * - VITE_TEST_ROUTES=1 adds test-only routes (/{lang}/__test__/crash, which throws to show the
 *   crash screen). Only the e2e build sets it; a production build never contains that code.
 * - VITE_REST_URL: the API's base URL when it is not the origin serving the app (default '').
 * - VITE_ANALYTICS_URL: optional page-view beacon URL (always off on localhost).
 * - VITE_COMPANY_DOMAINS: company mail domains, the first one primary (default: core's list).
 * - API_PROXY_TARGET: where `vite` (dev server) proxies /v1 (default http://localhost:3000).
 *
 * Code splitting: the entry holds React, the router, i18n, the session store and antd's
 * ConfigProvider; the sign-in page, the shell and every screen are lazy chunks, so the sign-in
 * route ships only what it needs (target: under 300 KB of gzip JavaScript).
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
import { defineConfig, type Plugin } from 'vite';

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

const testRoutes = process.env.VITE_TEST_ROUTES === '1' ? '1' : '';

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
  plugins: [react(), precompress()],
  resolve: { alias: command === 'build' ? productionAliases : [] },
  define: {
    // A literal, so a production build drops the test routes and their chunk entirely.
    'import.meta.env.VITE_TEST_ROUTES': JSON.stringify(testRoutes),
  },
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
