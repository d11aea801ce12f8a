/** es catalogue: the dataviewer screen (owned by apps/web/src/features/dataviewer). */
import type { dataviewer as en } from '../en/dataviewer.ts';

export const dataviewer: Record<keyof typeof en, string> = {};
