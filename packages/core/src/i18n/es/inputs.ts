/** es catalogue: inputs area. Flat dotted keys. */
export const inputs = {
} as const satisfies Record<string, string>;
