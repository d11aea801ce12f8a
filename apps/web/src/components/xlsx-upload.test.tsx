import { render, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import ExcelJS from 'exceljs';
import { App } from 'antd';
import { describe, expect, it, vi } from 'vitest';
import { setTestLanguage } from '../../test/i18n.ts';
import type { ParsedTable } from './table-file.ts';
import { XlsxUpload } from './xlsx-upload.tsx';

const fileInput = () => document.querySelector<HTMLInputElement>('input[type="file"]')!;

describe('XlsxUpload', () => {
  it("refuses a CSV with 'Please, provide a valid XLSX.' in Spanish too", async () => {
    await setTestLanguage('es');
    const user = userEvent.setup({ applyAccept: false });
    render(
      <App>
        <XlsxUpload onParsed={vi.fn()} />
      </App>,
    );
    expect(screen.getByRole('button', { name: /Subir XLSX/ })).toBeTruthy();
    await user.upload(fileInput(), new File(['a,b'], 'data.csv', { type: 'text/csv' }));
    await waitFor(() =>
      expect(document.body.textContent).toContain('Por favor, proporciona un XLSX válido.'),
    );
  });

  it('reads the first sheet of a workbook', async () => {
    const wb = new ExcelJS.Workbook();
    const sheet = wb.addWorksheet('S');
    sheet.addRow(['network', 'revenue']);
    sheet.addRow(['Google', 10.5]);
    const buffer = (await wb.xlsx.writeBuffer()) as ArrayBuffer;
    const user = userEvent.setup();
    const onParsed = vi.fn<(t: ParsedTable) => void>();
    render(
      <App>
        <XlsxUpload onParsed={onParsed} />
      </App>,
    );
    await user.upload(fileInput(), new File([buffer], 'book.xlsx'));
    await waitFor(() => expect(onParsed).toHaveBeenCalled());
    expect(onParsed.mock.calls[0]![0].records).toEqual([{ network: 'Google', revenue: 10.5 }]);
  });

  it('says the file could not be read when it is not a workbook', async () => {
    const user = userEvent.setup();
    const onParsed = vi.fn();
    render(
      <App>
        <XlsxUpload onParsed={onParsed} />
      </App>,
    );
    await user.upload(fileInput(), new File(['not a zip'], 'broken.xlsx'));
    await waitFor(() => expect(document.body.textContent).toContain('The file could not be read'));
    expect(onParsed).not.toHaveBeenCalled();
  });
});
