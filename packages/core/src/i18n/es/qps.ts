/** es catalogue: the qps screen (owned by apps/web/src/features/qps). */
import type { qps as en } from '../en/qps.ts';

export const qps: Record<keyof typeof en, string> = {};
