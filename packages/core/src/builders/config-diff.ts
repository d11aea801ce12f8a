/**
 * Which configuration paths differ between two saved versions (the compare view lists them next
 * to the code diff). Paths are dotted like the form's field paths (`creatives.0.media_files.1.url`);
 * a value present on one side only counts as changed at its own path, arrays compare by position.
 */

type Json = unknown;

const isPlainObject = (v: Json): v is Record<string, Json> => typeof v === 'object' && v !== null && !Array.isArray(v);

function walk(a: Json, b: Json, path: string, out: string[]): void {
  if (Object.is(a, b)) return;
  if (Array.isArray(a) && Array.isArray(b)) {
    const n = Math.max(a.length, b.length);
    for (let i = 0; i < n; i++) {
      const p = path === '' ? String(i) : `${path}.${i}`;
      if (i >= a.length || i >= b.length) out.push(p);
      else walk(a[i], b[i], p, out);
    }
    return;
  }
  if (isPlainObject(a) && isPlainObject(b)) {
    const keys = new Set([...Object.keys(a), ...Object.keys(b)]);
    for (const k of keys) {
      const p = path === '' ? k : `${path}.${k}`;
      const inA = Object.prototype.hasOwnProperty.call(a, k) && a[k] !== undefined;
      const inB = Object.prototype.hasOwnProperty.call(b, k) && b[k] !== undefined;
      if (inA !== inB) out.push(p);
      else if (inA) walk(a[k], b[k], p, out);
    }
    return;
  }
  out.push(path === '' ? '' : path);
}

/** The dotted paths whose values differ between `a` and `b`, sorted; [] when equal. */
export function configChangedPaths(a: Json, b: Json): string[] {
  const out: string[] = [];
  walk(a, b, '', out);
  return [...new Set(out)].sort((x, y) => x.localeCompare(y, 'en', { numeric: true }));
}
