import { render, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { App } from 'antd';
import { describe, expect, it, vi } from 'vitest';
import { CsvUpload } from './csv-upload.tsx';
import type { ParsedTable } from './table-file.ts';

const fileInput = () => document.querySelector<HTMLInputElement>('input[type="file"]')!;

describe('CsvUpload', () => {
  it('accepts only .csv files', () => {
    render(<CsvUpload />);
    expect(fileInput().getAttribute('accept')).toBe('.csv,text/csv');
    expect(screen.getByRole('button', { name: /Upload CSV/ })).toBeTruthy();
  });

  it("refuses another extension with 'Please, provide a valid CSV.'", async () => {
    const user = userEvent.setup({ applyAccept: false });
    const onParsed = vi.fn();
    render(
      <App>
        <CsvUpload onParsed={onParsed} />
      </App>,
    );
    await user.upload(fileInput(), new File(['a,b'], 'data.txt', { type: 'text/plain' }));
    await waitFor(() => expect(document.body.textContent).toContain('Please, provide a valid CSV.'));
    expect(onParsed).not.toHaveBeenCalled();
  });

  it('reads a semicolon CSV, drops rows with empty values and says how many rows', async () => {
    const user = userEvent.setup();
    const onParsed = vi.fn<(t: ParsedTable) => void>();
    const onFile = vi.fn();
    render(
      <App>
        <CsvUpload onParsed={onParsed} onFile={onFile} dropEmpty />
      </App>,
    );
    await user.upload(
      fileInput(),
      new File(['id;name\n1;Acme\n2;\n3;Beta\n'], 'partners.csv', { type: 'text/csv' }),
    );
    await waitFor(() => expect(onParsed).toHaveBeenCalled());
    const table = onParsed.mock.calls[0]![0];
    expect(table.records).toEqual([
      { id: '1', name: 'Acme' },
      { id: '3', name: 'Beta' },
    ]);
    expect(onFile.mock.calls[0]![0].name).toBe('partners.csv');
    await waitFor(() => expect(document.body.textContent).toContain('Rows loaded: 2'));
    expect(document.body.textContent).toContain('Rows skipped because of empty values: 1');
  });
});
