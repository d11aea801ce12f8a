/** es catalogue: the dashboard screen (owned by apps/web/src/features/dashboard). */
import type { dashboard as en } from '../en/dashboard.ts';

export const dashboard: Record<keyof typeof en, string> = {};
