/** Price floors (`/partners/floors`): the rules, the tester, versions, the CSV round trip and the Prebid export. */
export const floors = {
} as const;
