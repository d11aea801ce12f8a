/**
 * Where the session lives in the browser. Free of imports: the session store uses these, and so
 * does the build's boot script (vite.config.ts `bootPreload`), which runs before any module.
 */
export const SESSION_STORAGE_KEY = 'backoffice-session';
/** Browser-session cookie that keeps a non-remembered session alive until the browser closes. */
export const LIVE_SESSION_COOKIE = 'bo_live';
