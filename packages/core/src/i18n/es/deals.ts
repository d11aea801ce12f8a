/** Deals (`/partners/deals`): OpenRTB 2.6 deals, their delivery and their pmp object. */
export const deals = {
} as const;
