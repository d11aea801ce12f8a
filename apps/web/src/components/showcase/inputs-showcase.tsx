/**
 * Development-only showcase of every shared input, for eyeballing them in both themes and at
 * phone and desktop widths (and for screenshots). Section titles are the component names
 * (code identifiers, not UI text); everything the inputs themselves show is translated.
 * The autocomplete searches a small in-memory list instead of the API.
 */
import type { DateRangeValue, IsoDate, MonthValue } from '@backoffice/core/dates';
import type { SelectOption } from '@backoffice/core/inputs';
import { Card, Col, Row, Table, Typography } from 'antd';
import { useState, type ReactNode } from 'react';
import { AutocompleteInput, type AutocompleteFetcher } from '../autocomplete-input.tsx';
import { CounterInput } from '../counter-input.tsx';
import { CsvUpload } from '../csv-upload.tsx';
import { DateInput } from '../date-input.tsx';
import { DateRangeInput } from '../date-range-input.tsx';
import { DateTimeInput } from '../date-time-input.tsx';
import { ExportButton, type ExportColumn } from '../export-button.tsx';
import { MoneyCell } from '../money-cell.tsx';
import { MonthInput } from '../month-input.tsx';
import { MultiSelect } from '../multi-select.tsx';
import { NumberCell } from '../number-cell.tsx';
import { NumberInput } from '../number-input.tsx';
import { SliderInput } from '../slider-input.tsx';
import type { ParsedTable } from '../table-file.ts';
import { UrlInput } from '../url-input.tsx';
import { XlsxUpload } from '../xlsx-upload.tsx';

const NETWORKS: SelectOption<number>[] = [
  { id: 1, value: 'Google AdX' },
  { id: 2, value: 'Magnite' },
  { id: 3, value: 'PubMatic' },
  { id: 4, value: 'Index Exchange' },
  { id: 5, value: 'OpenX' },
  { id: 6, value: 'Xandr' },
  { id: 7, value: 'Amazon TAM' },
];

const demoFetcher: AutocompleteFetcher = (_url, query, signal) =>
  new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      const text = (Object.entries(query).find(([k]) => k !== 'limit')?.[1] ?? '').toLowerCase();
      resolve(NETWORKS.filter((n) => n.value.toLowerCase().includes(text)).slice(0, Number(query.limit)));
    }, 300);
    signal.addEventListener('abort', () => {
      clearTimeout(timer);
      reject(new DOMException('aborted', 'AbortError'));
    });
  });

const BILLING_ROWS = [
  { network: 'Google AdX', currency: 'EUR', revenue: '1234567.891', margin: 23.456 },
  { network: 'Magnite', currency: 'USD', revenue: '98765.4', margin: 18.2 },
  { network: 'PubMatic', currency: 'EUR', revenue: '-120.5', margin: -3 },
];
const EXPORT_COLUMNS: ExportColumn[] = [
  { key: 'network', title: 'network' },
  { key: 'currency', title: 'currency' },
  { key: 'revenue', title: 'revenue', type: 'money' },
  { key: 'margin', title: 'margin', type: 'number' },
];

function Item({ name, value, children }: { name: string; value?: unknown; children: ReactNode }) {
  return (
    <Col xs={24} md={12} xl={8}>
      <Card size="small" title={<Typography.Text code>{name}</Typography.Text>} style={{ height: '100%' }}>
        <div style={{ display: 'flex', flexDirection: 'column', gap: 8 }}>
          {children}
          {value !== undefined && (
            <Typography.Text type="secondary" style={{ fontSize: 12, wordBreak: 'break-all' }}>
              <code>{JSON.stringify(value)}</code>
            </Typography.Text>
          )}
        </div>
      </Card>
    </Col>
  );
}

export default function InputsShowcase() {
  const [range, setRange] = useState<DateRangeValue | null>({
    start: '2024-05-01',
    end: '2024-05-15',
    preset: undefined,
  });
  const [weekRange, setWeekRange] = useState<DateRangeValue | null>(null);
  const [date, setDate] = useState<IsoDate | null>(null);
  const [month, setMonth] = useState<MonthValue | null>(null);
  const [dateTime, setDateTime] = useState<string | null>(null);
  const [amount, setAmount] = useState<string | null>('1234.5');
  const [count, setCount] = useState(3);
  const [share, setShare] = useState(40);
  const [networks, setNetworks] = useState<number[]>([1, 3]);
  const [network, setNetwork] = useState<SelectOption | null>(null);
  const [url, setUrl] = useState('ftp://files.example.com/in');
  const [table, setTable] = useState<
    (Pick<ParsedTable, 'fileName' | 'columns' | 'dropped'> & { rows: number }) | null
  >(null);
  const onParsed = (t: ParsedTable) =>
    setTable({ fileName: t.fileName, columns: t.columns, dropped: t.dropped, rows: t.rows.length });

  return (
    <div style={{ padding: 16 }}>
      <Row gutter={[16, 16]}>
        <Item name="DateRangeInput" value={range}>
          <DateRangeInput value={range} onChange={setRange} style={{ width: '100%' }} />
        </Item>
        <Item name="DateRangeInput unit=week" value={weekRange}>
          <DateRangeInput unit="week" value={weekRange} onChange={setWeekRange} style={{ width: '100%' }} />
        </Item>
        <Item name="DateInput" value={date}>
          <DateInput value={date} onChange={setDate} style={{ width: '100%' }} />
        </Item>
        <Item name="MonthInput" value={month}>
          <MonthInput
            value={month}
            onChange={setMonth}
            min={{ year: 2023, month: 1 }}
            style={{ width: '100%' }}
          />
        </Item>
        <Item name="DateTimeInput" value={dateTime}>
          <DateTimeInput value={dateTime} onChange={setDateTime} style={{ width: '100%' }} />
        </Item>
        <Item name="NumberInput" value={amount}>
          <NumberInput value={amount} onChange={setAmount} aria-label="amount" />
        </Item>
        <Item name="CounterInput" value={count}>
          <CounterInput value={count} onChange={setCount} aria-label="count" />
        </Item>
        <Item name="SliderInput" value={share}>
          <SliderInput value={share} onChange={setShare} aria-label="share" />
        </Item>
        <Item name="MultiSelect maxCount=3" value={networks}>
          <MultiSelect<number>
            options={NETWORKS}
            value={networks}
            onChange={setNetworks}
            maxCount={3}
            style={{ width: '100%' }}
          />
        </Item>
        <Item name="AutocompleteInput" value={network}>
          <AutocompleteInput
            url="/v1/partners/search"
            field="network"
            fetcher={demoFetcher}
            value={network}
            onChange={setNetwork}
            style={{ width: '100%' }}
          />
        </Item>
        <Item name="UrlInput" value={url}>
          <UrlInput value={url} onChange={setUrl} />
        </Item>
        <Item name="CsvUpload / XlsxUpload" value={table ?? undefined}>
          <div style={{ display: 'flex', gap: 8, flexWrap: 'wrap' }}>
            <CsvUpload onParsed={onParsed} dropEmpty />
            <XlsxUpload onParsed={onParsed} />
          </div>
        </Item>
        <Col span={24}>
          <Card
            size="small"
            title={<Typography.Text code>MoneyCell / NumberCell / ExportButton</Typography.Text>}
            extra={
              <ExportButton name="billing_demo" columns={EXPORT_COLUMNS} rows={BILLING_ROWS} size="small" />
            }
          >
            <Table
              size="small"
              pagination={false}
              rowKey="network"
              scroll={{ x: true }}
              dataSource={BILLING_ROWS}
              columns={[
                { key: 'network', dataIndex: 'network', title: 'network' },
                {
                  key: 'revenue',
                  title: 'revenue',
                  align: 'right',
                  render: (_, row) => (
                    <MoneyCell amount={row.revenue} currency={row.currency} highlightNegative />
                  ),
                },
                {
                  key: 'margin',
                  title: 'margin',
                  align: 'right',
                  render: (_, row) => <NumberCell value={row.margin} suffix="%" />,
                },
              ]}
            />
          </Card>
        </Col>
      </Row>
    </div>
  );
}
