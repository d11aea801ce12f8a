/// <reference types="vite/client" />

/** Build-time settings (Vite `VITE_*` variables). */
interface ImportMetaEnv {
  /** REST base of the API; empty (default) means the same origin that serves the app. */
  readonly VITE_REST_URL?: string;
  /** Analytics beacon URL; unset disables analytics (always off on localhost). */
  readonly VITE_ANALYTICS_URL?: string;
  /** Comma-separated company domains, the first one primary (default: core's list). */
  readonly VITE_COMPANY_DOMAINS?: string;
}

interface ImportMeta {
  readonly env: ImportMetaEnv;
}
