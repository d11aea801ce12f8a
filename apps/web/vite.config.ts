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
 */
import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';

const testRoutes = process.env.VITE_TEST_ROUTES === '1' ? '1' : '';

export default defineConfig({
  plugins: [react()],
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
});
