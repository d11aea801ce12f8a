/** Work-mail rules (spec section 5, Login). */

export const DEFAULT_COMPANY_DOMAINS = [
  'adtech.example',
  'ssp.example',
  'performance.example',
  'playon.example',
] as const;

/** Parses a comma-separated domain list (COMPANY_DOMAINS); the first one is primary. */
export function parseDomains(value: string | undefined | null): string[] {
  const list = (value ?? '')
    .split(',')
    .map((d) => d.trim().toLowerCase())
    .filter(Boolean);
  return list.length ? list : [...DEFAULT_COMPANY_DOMAINS];
}

/** Lowercases and trims; appends the primary domain when the mail has no @. */
export function normalizeMail(input: string, domains: readonly string[] = DEFAULT_COMPANY_DOMAINS): string {
  const mail = input.trim().toLowerCase();
  if (mail === '') return mail;
  if (mail.includes('@')) return mail;
  return `${mail}@${domains[0] ?? DEFAULT_COMPANY_DOMAINS[0]}`;
}

/** True when the mail's domain is one of the company domains. */
export function isCompanyMail(mail: string, domains: readonly string[] = DEFAULT_COMPANY_DOMAINS): boolean {
  const at = mail.lastIndexOf('@');
  if (at <= 0 || at === mail.length - 1) return false;
  return domains.includes(mail.slice(at + 1).toLowerCase());
}
