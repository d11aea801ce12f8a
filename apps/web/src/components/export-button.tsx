/**
 * Export button (spec sections 5 and 9): downloads the given rows and columns as CSV or XLSX,
 * named `name_YYYY-MM-DD_HHmmss.csv|xlsx`; with no rows it says 'Export empty' instead.
 * Rows may be a loader (to fetch every filtered row, not just the visible page). ExcelJS is
 * imported only when an XLSX is asked for, so it is not part of the main bundle.
 */
import { DownOutlined, DownloadOutlined } from '@ant-design/icons';
import { exportFileName, type ExportFormat } from '@backoffice/core/export-name';
import { Button, Dropdown } from 'antd';
import Papa from 'papaparse';
import { useState, type CSSProperties } from 'react';
import { useTranslation } from 'react-i18next';
import { useNotice } from './use-notice.ts';
import { saveBlob } from '../lib/download.ts';

export type ExportRow = Record<string, unknown>;

export interface ExportColumn {
  /** Property of the row. */
  key: string;
  /** Header text (already translated). */
  title: string;
  /** Numbers and money become numeric cells in XLSX (money with 2 decimals). */
  type?: 'text' | 'number' | 'money';
}

export interface ExportButtonProps {
  /** Base of the file name, e.g. 'billing_ssp'. */
  name: string;
  columns: readonly ExportColumn[];
  rows: readonly ExportRow[] | (() => Promise<readonly ExportRow[]>);
  formats?: readonly ExportFormat[];
  disabled?: boolean;
  size?: 'small' | 'middle' | 'large';
  className?: string;
  style?: CSSProperties;
}

function cellText(value: unknown): string {
  if (value === null || value === undefined) return '';
  if (value instanceof Date) return value.toISOString();
  if (typeof value === 'object') return JSON.stringify(value);
  return String(value);
}

/**
 * Cells a spreadsheet would run as a formula (CSV injection), except plain numbers: a negative
 * amount like -120.50 must stay a number.
 */
const FORMULA_LIKE = /^(?![-+]?\d+(?:\.\d+)?$)[=+\-@\t\r]/;

/** CSV text: comma-separated, quoted where needed, formula-like cells neutralised. */
export function rowsToCsv(columns: readonly ExportColumn[], rows: readonly ExportRow[]): string {
  return Papa.unparse(
    {
      fields: columns.map((c) => c.title),
      data: rows.map((row) => columns.map((c) => cellText(row[c.key]))),
    },
    { delimiter: ',', newline: '\r\n', escapeFormulae: FORMULA_LIKE },
  );
}

function xlsxCell(value: unknown, type: ExportColumn['type']): string | number | boolean | Date | null {
  if (value === null || value === undefined || value === '') return null;
  if ((type === 'number' || type === 'money') && (typeof value === 'number' || typeof value === 'string')) {
    const n = Number(value);
    if (Number.isFinite(n)) return n;
  }
  if (typeof value === 'number' || typeof value === 'boolean' || value instanceof Date) return value;
  return cellText(value);
}

/** An XLSX workbook with one sheet, bold header and sensible widths. */
export async function rowsToXlsx(
  sheetName: string,
  columns: readonly ExportColumn[],
  rows: readonly ExportRow[],
): Promise<ArrayBuffer> {
  const { default: ExcelJS } = await import('exceljs');
  const workbook = new ExcelJS.Workbook();
  // Sheet names: at most 31 characters, none of []:*?/\
  const sheet = workbook.addWorksheet(sheetName.replace(/[[\]:*?/\\]/g, '_').slice(0, 31) || 'Sheet1');
  sheet.columns = columns.map((c) => ({
    header: c.title,
    key: c.key,
    width: Math.min(
      50,
      Math.max(10, c.title.length + 2, ...rows.slice(0, 200).map((r) => cellText(r[c.key]).length + 2)),
    ),
    style: c.type === 'money' ? { numFmt: '#,##0.00' } : {},
  }));
  sheet.getRow(1).font = { bold: true };
  sheet.views = [{ state: 'frozen', ySplit: 1 }];
  for (const row of rows)
    sheet.addRow(Object.fromEntries(columns.map((c) => [c.key, xlsxCell(row[c.key], c.type)])));
  const buffer = await workbook.xlsx.writeBuffer();
  return buffer as ArrayBuffer;
}

function download(data: BlobPart, type: string, fileName: string): void {
  saveBlob(new Blob([data], { type }), fileName);
}

const MIME: Record<ExportFormat, string> = {
  csv: 'text/csv;charset=utf-8',
  xlsx: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
};

export function ExportButton(props: ExportButtonProps) {
  const { name, columns, rows, formats = ['csv', 'xlsx'], disabled, size, className, style } = props;
  const { t } = useTranslation();
  const notice = useNotice();
  const [busy, setBusy] = useState<ExportFormat | null>(null);

  const run = async (format: ExportFormat) => {
    setBusy(format);
    try {
      const data = typeof rows === 'function' ? await rows() : rows;
      if (data.length === 0) {
        void notice.warning(t('export.empty'));
        return;
      }
      const fileName = exportFileName(name, format);
      if (format === 'csv') {
        // The BOM makes Excel read the file as UTF-8 (accents, €).
        download(`\uFEFF${rowsToCsv(columns, data)}`, MIME.csv, fileName);
      } else {
        download(await rowsToXlsx(name, columns, data), MIME.xlsx, fileName);
      }
    } catch {
      void notice.error(t('export.failed'));
    } finally {
      setBusy(null);
    }
  };

  if (formats.length === 1) {
    const only = formats[0] as ExportFormat;
    return (
      <Button
        icon={<DownloadOutlined />}
        loading={busy !== null}
        disabled={disabled}
        size={size}
        className={className}
        style={style}
        onClick={() => void run(only)}
      >
        {`${t('export.button')} ${t(`export.${only}`)}`}
      </Button>
    );
  }

  return (
    <Dropdown
      disabled={disabled || busy !== null}
      trigger={['click']}
      menu={{
        items: formats.map((f) => ({ key: f, label: t(`export.${f}`), icon: <DownloadOutlined /> })),
        onClick: ({ key }) => void run(key as ExportFormat),
      }}
    >
      <Button
        icon={<DownloadOutlined />}
        loading={busy !== null}
        disabled={disabled}
        size={size}
        className={className}
        style={style}
      >
        {t('export.button')} <DownOutlined style={{ fontSize: 10 }} />
      </Button>
    </Dropdown>
  );
}
