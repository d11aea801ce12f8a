/**
 * Parses PostgreSQL's text output of a two-dimensional text array (`array_out`), as the reports
 * engine hands over a page of rows: `{{a,b},{c,"d, e"}}` → [['a', 'b'], ['c', 'd, e']].
 *
 * The format: elements separated by commas; an element is double-quoted when it is empty, holds
 * `{ } , " \` or whitespace, or spells NULL, and inside quotes `"` and `\` are escaped with a
 * backslash; an unquoted NULL is SQL NULL. Bounds decoration (`[0:1]=…`) only appears for arrays
 * whose lower bound is not 1, which array_agg never builds. NULL (no rows) or `{}` → [].
 */
export function parseTextArray2D(text: string | null | undefined): (string | null)[][] {
  if (!text || text === '{}') return [];
  // Fast path: nothing quoted (numbers, plain words), so commas and braces are only separators.
  if (!text.includes('"')) {
    const firstRow = text.slice(2, text.indexOf('}'));
    let width = 1;
    for (let i = 0; i < firstRow.length; i++) if (firstRow.charCodeAt(i) === 44 /* , */) width++;
    const flat = text.slice(2, -2).split(/\},\{|,/);
    const rows: (string | null)[][] = new Array(flat.length / width);
    for (let i = 0, k = 0; i < flat.length; i += width, k++) {
      const row: (string | null)[] = new Array(width);
      for (let j = 0; j < width; j++) {
        const v = flat[i + j]!;
        row[j] = v === 'NULL' ? null : v;
      }
      rows[k] = row;
    }
    return rows;
  }
  const rows: (string | null)[][] = [];
  let i = 1; // after the outer '{'
  const n = text.length;
  while (i < n && text[i] === '{') {
    i++;
    const row: (string | null)[] = [];
    for (;;) {
      let value: string | null;
      if (text[i] === '"') {
        i++;
        let out = '';
        let start = i;
        while (text[i] !== '"') {
          if (i >= n) throw new Error('unterminated quoted element in a text array');
          if (text[i] === '\\') {
            out += text.slice(start, i);
            start = i + 1;
            i += 2;
          } else i++;
        }
        value = out + text.slice(start, i);
        i++; // closing quote
      } else {
        const start = i;
        while (i < n && text[i] !== ',' && text[i] !== '}') i++;
        const raw = text.slice(start, i);
        value = raw === 'NULL' ? null : raw;
      }
      row.push(value);
      if (text[i] === ',') {
        i++;
        continue;
      }
      i++; // the row's '}'
      break;
    }
    rows.push(row);
    if (text[i] === ',') i++;
  }
  return rows;
}
