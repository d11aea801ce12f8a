// Repository paths shared by the start, test, e2e and bench scripts.
import { fileURLToPath } from 'node:url';
import path from 'node:path';

export const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');
export const fromRoot = (...parts) => path.join(ROOT, ...parts);

export const API_DIR = fromRoot('apps', 'api');
export const WEB_DIR = fromRoot('apps', 'web');
export const CORE_DIR = fromRoot('packages', 'core');

/** The bundled server that `npm start`, the e2e suite and the web bench run. */
export const API_SERVER = fromRoot('apps', 'api', 'dist', 'server.js');
/** The web build, served by default (the server's WEB_DIST default); the e2e suite runs against it too. */
export const WEB_DIST = fromRoot('apps', 'web', 'dist');
/** Scratch space for logs and reports of the scripts (gitignored). */
export const TMP_DIR = fromRoot('.tmp');
