/**
 * Where the session lives in the browser. Free of imports: the session store uses these, and so
 * does the build's boot script (vite.config.ts `bootPreload`), which runs before any module.
 */
export const SESSION_STORAGE_KEY = 'backoffice-session';
/** Version of the persisted session; bump when its shape changes (older states are dropped). */
export const SESSION_VERSION = 1;
/** Browser-session cookie that keeps a non-remembered session alive until the browser closes. */
export const LIVE_SESSION_COOKIE = 'bo_live';
