import { describe, expect, it } from 'vitest';
import {
  checkUpload,
  detectDelimiter,
  dropRowsWithEmptyValues,
  fileExtension,
  folderPath,
  formatBytes,
  isInside,
  isPreviewable,
  looksLikeText,
  precheckFile,
  renameProblem,
  resourceFileFieldsSchema,
  sanitizeFileName,
  uploadError,
} from './files.ts';

describe('upload extension checks', () => {
  it('accepts the right extension, any case', () => {
    expect(uploadError('report.csv', 'csv')).toBeNull();
    expect(uploadError('REPORT.CSV', 'csv')).toBeNull();
    expect(uploadError('book.xlsx', 'xlsx')).toBeNull();
  });
  it('answers with the spec message key otherwise', () => {
    expect(uploadError('report.xlsx', 'csv')).toBe('upload.csv.invalid');
    expect(uploadError('report.csv.exe', 'csv')).toBe('upload.csv.invalid');
    expect(uploadError('csv', 'csv')).toBe('upload.csv.invalid');
    expect(uploadError('book.xls', 'xlsx')).toBe('upload.xlsx.invalid');
    expect(fileExtension('C:\\tmp\\a.b.Csv')).toBe('csv');
    expect(fileExtension('.csv')).toBe('');
  });
});

describe('detectDelimiter', () => {
  it('finds commas and semicolons', () => {
    expect(detectDelimiter('a,b,c\n1,2,3\n')).toBe(',');
    expect(detectDelimiter('a;b;c\r\n1;2;3\r\n')).toBe(';');
  });
  it('ignores delimiters inside quotes (European decimals)', () => {
    expect(detectDelimiter('name;amount\n"Acme, Inc";"1,5"\n"B";"2,5"')).toBe(';');
    expect(detectDelimiter('"a;b",c\n"d;e",f')).toBe(',');
  });
  it('prefers the delimiter that splits every line the same way', () => {
    expect(detectDelimiter('id;note\n1;a,b,c\n2;d,e\n3;f')).toBe(';');
  });
  it('defaults to comma, skipping a BOM and blank lines', () => {
    expect(detectDelimiter('')).toBe(',');
    expect(detectDelimiter('single column\nvalue')).toBe(',');
    expect(detectDelimiter('\uFEFF\n\na;b\n1;2')).toBe(';');
  });
});

describe('dropRowsWithEmptyValues', () => {
  it('drops array rows with an empty value', () => {
    expect(dropRowsWithEmptyValues([['a', 'b'], ['c', ''], ['d', '  '], ['e', null], ['f', 0], []])).toEqual([
      ['a', 'b'],
      ['f', 0],
    ]);
  });
  it('drops object rows with an empty value, optionally only in some columns', () => {
    const rows = [
      { id: 1, name: 'x', note: '' },
      { id: 2, name: 'y', note: 'ok' },
      { id: 3, name: undefined, note: 'ok' },
    ];
    expect(dropRowsWithEmptyValues(rows)).toEqual([{ id: 2, name: 'y', note: 'ok' }]);
    expect(dropRowsWithEmptyValues(rows, ['id', 'name'])).toEqual([rows[0], rows[1]]);
  });
});

describe('resources manager: file names', () => {
  it('keeps the last path segment, drops control and reserved characters, trims dots and spaces', () => {
    expect(sanitizeFileName('../../etc/passwd.png')).toBe('passwd.png');
    expect(sanitizeFileName('C:\\Users\\ana\\Media kit.pdf')).toBe('Media kit.pdf');
    expect(sanitizeFileName('rate\u0000card\u202e.pdf')).toBe('ratecard.pdf');
    expect(sanitizeFileName('a<b>:c"d|e?f*.png')).toBe('a_b__c_d_e_f_.png');
    expect(sanitizeFileName('  ..hidden  name. ')).toBe('hidden name');
    expect(sanitizeFileName('CON.png')).toBe('_CON.png');
    expect(sanitizeFileName('...')).toBe('');
    expect(sanitizeFileName('Cafe\u0301.png')).toBe('Café.png');
  });
  it('shortens a long name and keeps its extension', () => {
    const long = sanitizeFileName(`${'x'.repeat(300)}.jpeg`);
    expect(long).toHaveLength(180);
    expect(long.endsWith('.jpeg')).toBe(true);
  });
  it('the rename schema sanitises and needs an extension', () => {
    expect(resourceFileFieldsSchema.parse({ name: ' ../Logo.png ', folder_id: null })).toEqual({
      name: 'Logo.png',
      folder_id: null,
    });
    expect(resourceFileFieldsSchema.safeParse({ name: 'Logo', folder_id: null }).success).toBe(false);
    expect(renameProblem('logo.jpeg', 'image/jpeg')).toBeNull();
    expect(renameProblem('logo.exe', 'image/png')).toBe('files.rename.extension');
  });
});

describe('resources manager: upload checks', () => {
  const png = { ext: 'png', mime: 'image/png' };
  const bytes = new Uint8Array([1, 2, 3]);
  it('checks before sending: empty, too large, an extension we do not take', () => {
    expect(precheckFile('a.png', 0)).toEqual({ key: 'files.upload.empty' });
    expect(precheckFile('a.png', 30 * 1024 * 1024)).toEqual({
      key: 'files.upload.too_large',
      params: { max: '25' },
    });
    expect(precheckFile('setup.exe', 10)).toEqual({ key: 'files.upload.extension', params: { ext: 'exe' } });
    expect(precheckFile('image.svg', 10)).toEqual({ key: 'files.upload.extension', params: { ext: 'svg' } });
    expect(precheckFile('Deck.PPTX', 10)).toBeNull();
  });
  it('believes the bytes, not the name', () => {
    expect(checkUpload('banner.png', bytes, png)).toMatchObject({
      ok: true,
      name: 'banner.png',
      type: { kind: 'image', mime: 'image/png' },
    });
    expect(checkUpload('banner.png', bytes, { ext: 'exe', mime: 'application/x-msdownload' })).toEqual({
      ok: false,
      key: 'files.upload.type_refused',
      params: { ext: 'png', type: 'EXE' },
    });
    expect(checkUpload('banner.pdf', bytes, png)).toEqual({
      ok: false,
      key: 'files.upload.type_mismatch',
      params: { ext: 'pdf', type: 'PNG' },
    });
    expect(checkUpload('photo.jpeg', bytes, { ext: 'jpg', mime: 'image/jpeg' }).ok).toBe(true);
    expect(checkUpload('old.doc', bytes, { ext: 'cfb', mime: 'application/x-cfb' })).toMatchObject({
      ok: true,
      type: { mime: 'application/msword' },
    });
    expect(checkUpload('old.png', bytes, { ext: 'cfb', mime: 'application/x-cfb' }).ok).toBe(false);
    expect(checkUpload('x.png', new Uint8Array(0), png)).toEqual({ ok: false, key: 'files.upload.empty' });
    expect(checkUpload('x.png', new Uint8Array(11), png, 10)).toMatchObject({
      ok: false,
      key: 'files.upload.too_large',
    });
    expect(checkUpload('noext', bytes, png)).toEqual({ ok: false, key: 'files.upload.name_invalid' });
  });
  it('takes CSV as UTF-8 text without a magic number', () => {
    const text = new TextEncoder().encode('publisher;floor\nPrensa Ibérica;0.85\n');
    expect(looksLikeText(text)).toBe(true);
    expect(checkUpload('floors.csv', text, undefined)).toMatchObject({ ok: true, type: { kind: 'csv' } });
    expect(checkUpload('floors.txt', text, undefined)).toEqual({
      ok: false,
      key: 'files.upload.type_unknown',
      params: { ext: 'txt' },
    });
    expect(checkUpload('floors.csv', new Uint8Array([0x41, 0, 0x42]), undefined).ok).toBe(false);
    expect(looksLikeText(new Uint8Array([0xff, 0xfe, 0x41]))).toBe(false);
  });
  it('previews only what a browser shows safely', () => {
    expect(isPreviewable('image/png')).toBe(true);
    expect(isPreviewable('application/pdf')).toBe(true);
    expect(isPreviewable('text/csv')).toBe(false);
    expect(isPreviewable('image/svg+xml')).toBe(false);
  });
});

describe('resources manager: folders and sizes', () => {
  const folders = [
    { id: 1, name: 'Brand', parent_id: null },
    { id: 2, name: 'Logos', parent_id: 1 },
    { id: 3, name: 'Dark', parent_id: 2 },
    { id: 4, name: 'Legal', parent_id: null },
  ];
  it('gives the path from the top and tells a folder inside another', () => {
    expect(folderPath(folders, 3).map((f) => f.name)).toEqual(['Brand', 'Logos', 'Dark']);
    expect(folderPath(folders, null)).toEqual([]);
    expect(folderPath(folders, 99)).toEqual([]);
    expect(isInside(folders, 3, 1)).toBe(true);
    expect(isInside(folders, 1, 1)).toBe(true);
    expect(isInside(folders, 4, 1)).toBe(false);
    expect(isInside(folders, null, 1)).toBe(false);
  });
  it('formats sizes', () => {
    expect(formatBytes(512)).toBe('512 B');
    expect(formatBytes(1536)).toBe('1.5 KB');
    expect(formatBytes(25 * 1048576, 'es')).toBe('25,0 MB');
  });
});
