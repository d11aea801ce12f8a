/**
 * Generated initials avatars (SVG) for the staff roster. Deterministic: the same name always gives
 * the same initials and colour. Only the initials are drawn (no name in the markup), so the public
 * picture URLs cannot be used to read the roster.
 */
import crypto from 'node:crypto';

/** Background colours, each with at least 4.5:1 contrast against white text. */
export const AVATAR_COLOURS = [
  '#1565c0', '#2e7d32', '#6a1b9a', '#c62828', '#00695c', '#ad1457',
  '#4527a0', '#283593', '#bf360c', '#37474f', '#5d4037', '#0d47a1',
] as const;

/** Up to two initials: first letter of the first and of the last word ("María José Sánchez" -> "MS"). */
export function initialsOf(name: string): string {
  const words = name
    .split(/[\s\-_.]+/u)
    .map((w) => w.replace(/^[^\p{L}\p{N}]+/u, ''))
    .filter(Boolean);
  if (words.length === 0) return '?';
  const first = (w: string) => Array.from(w)[0]!.toLocaleUpperCase('en');
  return words.length === 1 ? first(words[0]!) : first(words[0]!) + first(words[words.length - 1]!);
}

/** FNV-1a over the UTF-16 code units: a stable colour index for a name. */
export function colourOf(name: string): string {
  let h = 0x811c9dc5;
  for (let i = 0; i < name.length; i++) {
    h ^= name.charCodeAt(i);
    h = Math.imul(h, 0x01000193) >>> 0;
  }
  return AVATAR_COLOURS[h % AVATAR_COLOURS.length]!;
}

function escapeXml(text: string): string {
  return text.replace(/[<>&"']/g, (c) => ({ '<': '&lt;', '>': '&gt;', '&': '&amp;', '"': '&quot;', "'": '&apos;' })[c]!);
}

export function avatarSvg(name: string): string {
  const initials = escapeXml(initialsOf(name));
  return (
    '<svg xmlns="http://www.w3.org/2000/svg" width="128" height="128" viewBox="0 0 128 128" role="img" ' +
    `aria-label="${initials}"><rect width="128" height="128" fill="${colourOf(name)}"/>` +
    '<text x="64" y="64" dy="0.35em" text-anchor="middle" fill="#ffffff" font-size="52" font-weight="600" ' +
    `font-family="system-ui,-apple-system,'Segoe UI',Roboto,'Helvetica Neue',Arial,sans-serif">${initials}</text></svg>`
  );
}

/** A strong validator for caching (If-None-Match). */
export function etagOf(body: string): string {
  return `"${crypto.createHash('sha256').update(body).digest('base64url').slice(0, 27)}"`;
}
