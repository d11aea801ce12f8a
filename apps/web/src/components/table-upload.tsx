/**
 * The upload behind CsvUpload and XlsxUpload (spec sections 5 and 8): only files with the right extension are
 * taken ('Please, provide a valid CSV.' / 'Please, provide a valid XLSX.' otherwise); the
 * file is read in the browser (CSV delimiter auto-detected) and handed over as a table, and
 * the raw File is available for multipart uploads. Nothing is sent anywhere by this component.
 */
import { UploadOutlined } from '@ant-design/icons';
import { UPLOAD_RULES, uploadError, type UploadKind } from '@backoffice/core/files';
import { Button, Flex, Typography, Upload } from 'antd';
import { useState, type CSSProperties } from 'react';
import { useTranslation } from 'react-i18next';
import { parseCsvFile, parseXlsxFile, type ParseOptions, type ParsedTable } from './table-file.ts';
import { useNotice } from './use-notice.ts';

export interface TableUploadProps extends ParseOptions {
  /** Called with the table read from the file. */
  onParsed?: (table: ParsedTable) => void;
  /** Called with the accepted file itself (for sending it on). */
  onFile?: (file: File) => void;
  disabled?: boolean;
  /** Button text (default "Upload CSV" / "Upload XLSX"). */
  label?: string;
  size?: 'small' | 'middle' | 'large';
  className?: string;
  style?: CSSProperties;
}

const BUTTON_KEY = { csv: 'upload.csv.button', xlsx: 'upload.xlsx.button' } as const;

/** The shared upload; use CsvUpload or XlsxUpload. */
export function TableUpload({ kind, ...props }: TableUploadProps & { kind: UploadKind }) {
  const { t } = useTranslation();
  const notice = useNotice();
  const [busy, setBusy] = useState(false);
  const [summary, setSummary] = useState<{ name: string; rows: number; dropped: number } | null>(null);

  const accept = async (file: File) => {
    props.onFile?.(file);
    if (!props.onParsed) {
      setSummary({ name: file.name, rows: -1, dropped: 0 });
      return;
    }
    setBusy(true);
    try {
      const options = { header: props.header, dropEmpty: props.dropEmpty };
      const table = kind === 'csv' ? await parseCsvFile(file, options) : await parseXlsxFile(file, options);
      if (table.rows.length === 0 && table.dropped === 0) void notice.warning(t('upload.empty'));
      setSummary({ name: file.name, rows: table.rows.length, dropped: table.dropped });
      props.onParsed(table);
    } catch {
      setSummary(null);
      void notice.error(t('upload.read_error'));
    } finally {
      setBusy(false);
    }
  };

  return (
    <Flex vertical gap={4} className={props.className} style={props.style}>
      <Upload
        accept={UPLOAD_RULES[kind].accept}
        multiple={false}
        maxCount={1}
        showUploadList={false}
        disabled={props.disabled || busy}
        beforeUpload={(file) => {
          const error = uploadError(file.name, kind);
          if (error) {
            void notice.error(t(error));
            return Upload.LIST_IGNORE;
          }
          void accept(file);
          // Never upload by itself: the caller decides what to send.
          return false;
        }}
      >
        <Button icon={<UploadOutlined />} loading={busy} disabled={props.disabled} size={props.size}>
          {props.label ?? t(BUTTON_KEY[kind])}
        </Button>
      </Upload>
      {summary && (
        <Typography.Text type="secondary" style={{ fontSize: 12 }}>
          {summary.name}
          {summary.rows >= 0 && ` · ${t('upload.rows_loaded', { count: summary.rows })}`}
          {summary.dropped > 0 && ` · ${t('upload.rows_dropped', { count: summary.dropped })}`}
        </Typography.Text>
      )}
    </Flex>
  );
}
