/** CSV upload (spec section 5): `.csv` only ('Please, provide a valid CSV.'), comma or semicolon detected. */
import { TableUpload, type TableUploadProps } from './table-upload.tsx';

export type CsvUploadProps = TableUploadProps;

export function CsvUpload(props: CsvUploadProps) {
  return <TableUpload kind="csv" {...props} />;
}
