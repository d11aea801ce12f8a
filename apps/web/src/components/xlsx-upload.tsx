/** XLSX upload (spec section 5): `.xlsx` only ('Please, provide a valid XLSX.'), first worksheet read. */
import { TableUpload, type TableUploadProps } from './table-upload.tsx';

export type XlsxUploadProps = TableUploadProps;

export function XlsxUpload(props: XlsxUploadProps) {
  return <TableUpload kind="xlsx" {...props} />;
}
