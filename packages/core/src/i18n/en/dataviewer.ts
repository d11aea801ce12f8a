/** en catalogue: the dataviewer screen (owned by apps/web/src/features/dataviewer). */
export const dataviewer = {
} as const;
