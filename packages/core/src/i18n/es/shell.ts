/** es catalogue: shell area. Flat dotted keys. */
export const shell = {
} as const satisfies Record<string, string>;
