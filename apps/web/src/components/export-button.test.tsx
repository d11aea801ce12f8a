import { render, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import ExcelJS from 'exceljs';
import { App } from 'antd';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { setTestLanguage } from '../../test/i18n.ts';
import { ExportButton, rowsToCsv, type ExportColumn } from './export-button.tsx';

const COLUMNS: ExportColumn[] = [
  { key: 'network', title: 'Network' },
  { key: 'revenue', title: 'Revenue', type: 'money' },
];
const ROWS = [
  { network: 'Google, Inc', revenue: '1234.5' },
  { network: '=HYPERLINK("x")', revenue: '2' },
];

let blobs: Blob[] = [];
let downloads: string[] = [];

beforeEach(() => {
  vi.useFakeTimers({ toFake: ['Date'] });
  vi.setSystemTime(new Date(2024, 4, 15, 9, 5, 7));
  blobs = [];
  downloads = [];
  vi.spyOn(URL, 'createObjectURL').mockImplementation((blob) => {
    blobs.push(blob as Blob);
    return 'blob:test';
  });
  vi.spyOn(URL, 'revokeObjectURL').mockImplementation(() => undefined);
  // jsdom cannot navigate; note the file name the browser would save.
  vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(function (this: HTMLAnchorElement) {
    downloads.push(this.download);
  });
});
afterEach(() => {
  vi.useRealTimers();
  vi.restoreAllMocks();
});

async function choose(user: ReturnType<typeof userEvent.setup>, format: RegExp) {
  await user.click(screen.getByRole('button', { name: /Export|Exportar/ }));
  await user.click(await screen.findByText(format));
}

describe('ExportButton', () => {
  it("says 'Export empty' instead of downloading nothing", async () => {
    const user = userEvent.setup();
    render(
      <App>
        <ExportButton name="billing" columns={COLUMNS} rows={[]} />
      </App>,
    );
    await choose(user, /^CSV$/);
    await waitFor(() => expect(document.body.textContent).toContain('Export empty'));
    expect(downloads).toEqual([]);
  });

  it('downloads a CSV named name_YYYY-MM-DD_HHmmss.csv', async () => {
    const user = userEvent.setup();
    render(
      <App>
        <ExportButton name="billing" columns={COLUMNS} rows={ROWS} />
      </App>,
    );
    await choose(user, /^CSV$/);
    await waitFor(() => expect(downloads).toEqual(['billing_2024-05-15_090507.csv']));
    const bytes = new Uint8Array(await blobs[0]!.arrayBuffer());
    // A UTF-8 byte order mark first, so Excel reads accents and € correctly.
    expect([...bytes.slice(0, 3)]).toEqual([0xef, 0xbb, 0xbf]);
    expect(new TextDecoder().decode(bytes.slice(3))).toBe(
      'Network,Revenue\r\n"Google, Inc",1234.5\r\n"\'=HYPERLINK(""x"")",2',
    );
  });

  it('downloads an XLSX with numeric money cells, loading rows on demand', async () => {
    const user = userEvent.setup();
    const loadRows = vi.fn(async () => ROWS);
    render(
      <App>
        <ExportButton name="billing" columns={COLUMNS} rows={loadRows} />
      </App>,
    );
    await choose(user, /XLSX/);
    await waitFor(() => expect(downloads).toEqual(['billing_2024-05-15_090507.xlsx']));
    expect(loadRows).toHaveBeenCalledTimes(1);
    const wb = new ExcelJS.Workbook();
    await wb.xlsx.load(await blobs[0]!.arrayBuffer());
    const sheet = wb.worksheets[0]!;
    expect(sheet.getRow(1).values).toEqual([undefined, 'Network', 'Revenue']);
    expect(sheet.getCell('A2').value).toBe('Google, Inc');
    expect(sheet.getCell('B2').value).toBe(1234.5);
    expect(sheet.getCell('B2').numFmt).toBe('#,##0.00');
  });

  it('is translated', async () => {
    await setTestLanguage('es');
    const user = userEvent.setup();
    render(
      <App>
        <ExportButton name="x" columns={COLUMNS} rows={[]} formats={['xlsx']} />
      </App>,
    );
    await user.click(screen.getByRole('button', { name: /Exportar Excel/ }));
    await waitFor(() => expect(document.body.textContent).toContain('Exportación vacía'));
  });

  it('writes CSV that spreadsheets will not execute, keeping negative numbers', () => {
    expect(rowsToCsv([{ key: 'a', title: 'A' }], [{ a: '-120.50' }, { a: -3 }, { a: '-1+2' }])).toBe(
      'A\r\n-120.50\r\n-3\r\n"\'-1+2"',
    );
    expect(rowsToCsv([{ key: 'a', title: 'A' }], [{ a: '+1+1' }, { a: '@SUM(1)' }, { a: 'plain' }])).toBe(
      'A\r\n"\'+1+1"\r\n"\'@SUM(1)"\r\nplain',
    );
  });
});
