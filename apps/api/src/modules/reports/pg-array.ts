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
    return text
      .slice(2, -2)
      .split('},{')
      .map((row) => row.split(',').map((v) => (v === 'NULL' ? null : v)));
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
