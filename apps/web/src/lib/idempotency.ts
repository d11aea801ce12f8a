/**
 * A fresh idempotency key for one click of a final action (approve, issue, a ledger entry…): 32 hex
 * digits after an optional prefix. The same key travels with every retry of that click, so the
 * server does the action once. getRandomValues also works outside a secure context (an intranet
 * address over plain HTTP), where crypto.randomUUID is missing.
 */
export function newIdempotencyKey(prefix = ''): string {
  const bytes = crypto.getRandomValues(new Uint8Array(16));
  return `${prefix}${Array.from(bytes, (b) => b.toString(16).padStart(2, '0')).join('')}`;
}
