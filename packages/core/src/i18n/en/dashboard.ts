/** en catalogue: the dashboard screen (owned by apps/web/src/features/dashboard). */
export const dashboard = {
} as const;
