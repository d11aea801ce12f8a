/** en catalogue: the qps screen (owned by apps/web/src/features/qps). */
export const qps = {
} as const;
