/**
 * Amazon CSV importer (`/utils/amazon_csv`; docs/decisions/034-partner-reported-figures.md): pick
 * an APS earnings CSV (spec 5: .csv only, comma or semicolon detected), map its columns to ours
 * (a first guess from APS's names, or a mapping saved by name for the team), preview each row with
 * its errors and the days it gives, then import as the Amazon partner's figures. The same file
 * again changes nothing; a file whose days already hold other figures asks first, listing them.
 * Imports are listed with who, when, rows and days, and can be undone.
 */
import { DeleteOutlined, DownloadOutlined, EyeOutlined, ImportOutlined, SaveOutlined, UndoOutlined } from '@ant-design/icons';
import { utcToday } from '@backoffice/core/billing-accounts';
import { formatNumber } from '@backoffice/core/format';
import {
  AMAZON_FIELDS,
  AMAZON_REQUIRED_FIELDS,
  guessAmazonColumns,
  sampleApsCsv,
  type AmazonField,
  type AmazonImport,
  type AmazonImportResult,
  type AmazonImportsAnswer,
  type AmazonMapping,
  type AmazonMappingColumns,
  type AmazonPreview,
  type AmazonRow,
  type ManualPartner,
} from '@backoffice/core/partner-stats';
import { App, Alert, Button, Card, Flex, Input, Select, Space, Table, Tag, Typography } from 'antd';
import { useEffect, useRef, useState, type HTMLAttributes } from 'react';
import { useTranslation } from 'react-i18next';
import { CsvUpload } from '../../components/csv-upload.tsx';
import { MoneyCell } from '../../components/money-cell.tsx';
import type { ParsedTable } from '../../components/table-file.ts';
import { useApiAction } from '../../components/use-api-action.ts';
import { useLocale } from '../../components/use-locale.ts';
import { api } from '../../lib/api.ts';
import { saveBlob } from '../../lib/download.ts';
import { FetchError } from '../../lib/fetch-client.ts';
import { usePermission } from '../../lib/permission.tsx';
import { useApiQuery } from '../../lib/query.ts';
import { useUrlState } from '../../lib/use-url-state.ts';
import { formatDateTime, StatusTag } from '../../resources/resource-cells.tsx';
import '../../resources/resources.css';
import { Page } from '../../shell/page.tsx';
import { replacedDaysOf } from './partner-stats-api.ts';
import { ReplaceList } from './replace-list.tsx';
import './partner-stats.css';

type Columns = Partial<Record<AmazonField, string>>;

const complete = (c: Columns): AmazonMappingColumns | null =>
  AMAZON_REQUIRED_FIELDS.every((f) => c[f]) ? { date: c.date!, impressions: c.impressions!, revenue: c.revenue!, currency: c.currency ?? null, ad_unit: c.ad_unit ?? null } : null;

export default function AmazonCsvPage() {
  const { t } = useTranslation();
  const locale = useLocale();
  const { modal } = App.useApp();
  const action = useApiAction<'preview' | 'import' | 'save' | 'delete' | 'undo'>();
  const canWrite = usePermission('/v1/amazon', 'write');
  const [params, update] = useUrlState();
  const importsPage = Math.max(1, Number(params.get('page')) || 1);
  const partners = useApiQuery<ManualPartner[]>('amazon/partners');
  const mappings = useApiQuery<AmazonMapping[]>('amazon/mappings');
  const imports = useApiQuery<AmazonImportsAnswer>('amazon/imports', { query: { page: importsPage, page_size: 10 } });
  const [partner, setPartner] = useState<number | null>(null);
  const [file, setFile] = useState<{ name: string; text: string; headers: string[] } | null>(null);
  const [columns, setColumns] = useState<Columns>({});
  const [mappingName, setMappingName] = useState('');
  const [preview, setPreview] = useState<AmazonPreview | null>(null);
  const [mapErrors, setMapErrors] = useState<Partial<Record<AmazonField, string>>>({});
  const fileRef = useRef<File | null>(null);

  useEffect(() => {
    if (partner === null && partners.data?.length) setPartner(partners.data[0]!.id);
  }, [partners.data, partner]);

  const onFile = async (f: File, table: ParsedTable) => {
    const text = await f.text();
    setFile({ name: f.name, text, headers: table.columns });
    setPreview(null);
    setMapErrors({});
    // A saved mapping whose columns the file has, else a guess from APS's names.
    const saved = (mappings.data ?? (await mappings.refetch()).data)?.find((m) => AMAZON_REQUIRED_FIELDS.every((k) => table.columns.includes(m.columns[k])));
    if (saved) {
      setColumns({ ...saved.columns, currency: saved.columns.currency ?? undefined, ad_unit: saved.columns.ad_unit ?? undefined });
      setMappingName(saved.name);
    } else setColumns(guessAmazonColumns(table.columns));
  };

  const fieldErrors = (e: unknown) => {
    if (e instanceof FetchError && e.details.errors) {
      const next: Partial<Record<AmazonField, string>> = {};
      for (const [k, v] of Object.entries(e.details.errors)) {
        const m = /^columns\.(\w+)$/.exec(k);
        if (m) next[m[1] as AmazonField] = v;
      }
      if (Object.keys(next).length > 0) {
        setMapErrors(next);
        return false;
      }
    }
    return false;
  };

  const body = () => {
    const c = complete(columns);
    if (!c || !file || partner === null) {
      const missing: Partial<Record<AmazonField, string>> = {};
      for (const f of AMAZON_REQUIRED_FIELDS) if (!columns[f]) missing[f] = 'amazon.map.required';
      setMapErrors(missing);
      return null;
    }
    setMapErrors({});
    return { file_name: file.name, content: file.text, columns: c, demand_partner_id: partner };
  };

  const runPreview = () => {
    const b = body();
    if (!b) return;
    void action.run(
      'preview',
      async () => {
        setPreview(await api.request<AmazonPreview>('amazon/preview', { method: 'POST', body: b }));
        return null;
      },
      fieldErrors,
    );
  };

  const sendImport = async (replace: boolean): Promise<string | null> => {
    const b = body();
    if (!b) return null;
    const out = await api.request<AmazonImportResult>('amazon/imports', { method: 'POST', body: { ...b, mapping_name: mappingName.trim() || null, replace } });
    void imports.refetch();
    setPreview(await api.request<AmazonPreview>('amazon/preview', { method: 'POST', body: b }));
    return out.already ? 'amazon.already_imported' : 'amazon.imported';
  };
  const runImport = () =>
    void action.run(
      'import',
      () => sendImport(false),
      (e) => {
        const days = replacedDaysOf(e);
        if (!days) return fieldErrors(e);
        void modal.confirm({
          title: t('stats.replace.title', { count: days.length }),
          width: 640,
          content: <ReplaceList days={days} />,
          okText: t('stats.replace.ok'),
          cancelText: t('common.cancel'),
          okButtonProps: { danger: true, ...({ 'data-testid': 'stats-replace-ok' } as Record<string, string>) },
          onOk: () => void action.run('import', () => sendImport(true)),
        });
        return true;
      },
    );

  const saveMapping = () => {
    const c = complete(columns);
    const name = mappingName.trim();
    if (!c || !name) {
      if (!c) body();
      return;
    }
    const existing = mappings.data?.find((m) => m.name.toLowerCase() === name.toLowerCase());
    const work = async () => {
      await api.request<AmazonMapping>('amazon/mappings', { method: 'PUT', body: { name, columns: c, ...(existing ? { version: existing.version } : {}) } });
      void mappings.refetch();
      return 'amazon.mapping_saved';
    };
    if (existing) action.confirm({ title: t('amazon.mapping.overwrite', { name: existing.name }), content: null, ok: t('amazon.mapping.save'), testId: 'amazon-mapping-overwrite-ok' }, 'save', work);
    else void action.run('save', work);
  };
  const chosenMapping = mappings.data?.find((m) => m.name === mappingName);
  const deleteMapping = (m: AmazonMapping) =>
    action.confirm({ title: t('amazon.mapping.delete_confirm', { name: m.name }), content: null, ok: t('amazon.mapping.delete'), danger: true, testId: 'amazon-mapping-delete-ok' }, 'delete', async () => {
      await api.request(`amazon/mappings/${m.id}`, { method: 'DELETE' });
      void mappings.refetch();
      setMappingName('');
      return 'amazon.mapping_deleted';
    });
  const undo = (i: AmazonImport) =>
    action.confirm({ title: t('amazon.undo_confirm'), content: `${i.file_name} · ${i.first_day} – ${i.last_day}`, ok: t('amazon.undo'), danger: true, testId: 'amazon-undo-ok' }, 'undo', async () => {
      await api.request(`amazon/imports/${i.id}/undo`, { method: 'POST', body: {} });
      void imports.refetch();
      if (preview) setPreview(null);
      return 'amazon.undone';
    });

  const headerOptions = (file?.headers ?? []).map((h) => ({ value: h, label: h }));
  const rowColumns = [
    { key: 'line', title: t('amazon.preview.line'), render: (_: unknown, r: AmazonRow) => r.line },
    { key: 'date', title: t('amazon.field.date'), render: (_: unknown, r: AmazonRow) => <span className="bo-ps-nowrap">{r.raw[columns.date ?? ''] ?? ''}</span> },
    ...(columns.ad_unit ? [{ key: 'ad_unit', title: t('amazon.field.ad_unit'), render: (_: unknown, r: AmazonRow) => r.ad_unit ?? '' }] : []),
    { key: 'impressions', title: t('amazon.field.impressions'), align: 'right' as const, render: (_: unknown, r: AmazonRow) => r.raw[columns.impressions ?? ''] ?? '' },
    { key: 'revenue', title: t('amazon.field.revenue'), align: 'right' as const, render: (_: unknown, r: AmazonRow) => r.raw[columns.revenue ?? ''] ?? '' },
    {
      key: 'errors',
      title: t('amazon.preview.errors'),
      render: (_: unknown, r: AmazonRow) =>
        Object.keys(r.errors).length === 0 ? (
          <StatusTag tone="ok">{t('amazon.preview.ok')}</StatusTag>
        ) : (
          <Flex vertical gap={2} data-testid={`amazon-row-error-${r.line}`}>
            {Object.entries(r.errors).map(([f, key]) => (
              <Typography.Text type="danger" key={f}>
                {t(`amazon.field.${f}`)}: {t(key)}
              </Typography.Text>
            ))}
          </Flex>
        ),
    },
  ];

  return (
    <Page title={t('menu.amazon_csv')} testId="amazon-csv-page">
      <Typography.Paragraph type="secondary">{t('amazon.subtitle')}</Typography.Paragraph>

      <Card size="small" title={`1 · ${t('amazon.step.file')}`} className="bo-ps-gap">
        <Flex wrap gap={12} align="end">
          <div className="bo-ps-field">
            <label htmlFor="amazon-partner" className="bo-ps-label">
              {t('amazon.partner')}
            </label>
            <Select id="amazon-partner" className="bo-ps-select" value={partner ?? undefined} onChange={(v: number) => setPartner(v)} options={(partners.data ?? []).map((p) => ({ value: p.id, label: p.name }))} data-testid="amazon-partner" />
          </div>
          <CsvUpload
            onFile={(f) => {
              fileRef.current = f;
            }}
            onParsed={(table) => {
              if (fileRef.current) void onFile(fileRef.current, table);
            }}
          />
          <Button type="link" icon={<DownloadOutlined />} onClick={() => saveBlob(new Blob([sampleApsCsv(utcToday())], { type: 'text/csv' }), 'aps_earnings_example.csv')} data-testid="amazon-example">
            {t('amazon.example')}
          </Button>
        </Flex>
        <Typography.Text type="secondary" className="bo-ps-block">
          {t('amazon.file_hint')}
        </Typography.Text>
      </Card>

      {file ? (
        <Card size="small" title={`2 · ${t('amazon.step.map')}`} className="bo-ps-gap" data-testid="amazon-mapping">
          <Flex wrap gap={12} align="end" className="bo-ps-gap">
            <div className="bo-ps-field">
              <label htmlFor="amazon-mapping-load" className="bo-ps-label">
                {t('amazon.mapping')}
              </label>
              <Select
                id="amazon-mapping-load"
                className="bo-ps-select"
                allowClear
                placeholder={t('amazon.mapping.none')}
                value={chosenMapping?.name}
                onChange={(name?: string) => {
                  const m = mappings.data?.find((x) => x.name === name);
                  setMappingName(name ?? '');
                  if (m) setColumns({ ...m.columns, currency: m.columns.currency ?? undefined, ad_unit: m.columns.ad_unit ?? undefined });
                }}
                options={(mappings.data ?? []).map((m) => ({ value: m.name, label: m.name }))}
                data-testid="amazon-mapping-load"
              />
            </div>
            {chosenMapping && canWrite ? (
              <Button icon={<DeleteOutlined />} danger onClick={() => deleteMapping(chosenMapping)} data-testid="amazon-mapping-delete">
                {t('amazon.mapping.delete')}
              </Button>
            ) : null}
          </Flex>
          <div className="bo-ps-map">
            {AMAZON_FIELDS.map((f) => {
              const required = (AMAZON_REQUIRED_FIELDS as readonly string[]).includes(f);
              const err = mapErrors[f];
              return (
                <div className="bo-ps-field" key={f}>
                  <label htmlFor={`amazon-map-${f}`} className="bo-ps-label">
                    {t(`amazon.field.${f}`)}
                    {required ? ' *' : ''}
                  </label>
                  <Select
                    id={`amazon-map-${f}`}
                    className="bo-ps-select"
                    allowClear={!required}
                    status={err ? 'error' : undefined}
                    placeholder={required ? t('amazon.map.required') : t('amazon.map.unmapped')}
                    value={columns[f]}
                    onChange={(v?: string) => setColumns((c) => ({ ...c, [f]: v }))}
                    options={headerOptions}
                    aria-describedby={err ? `amazon-map-${f}-error` : undefined}
                    data-testid={`amazon-map-${f}`}
                  />
                  {err ? (
                    <Typography.Text type="danger" id={`amazon-map-${f}-error`} className="bo-ps-error">
                      {t(err, { column: columns[f] ?? '' })}
                    </Typography.Text>
                  ) : null}
                </div>
              );
            })}
          </div>
          <Flex wrap gap={8} align="end" className="bo-ps-gap-top">
            {canWrite ? (
              <>
                <Input className="bo-ps-select" aria-label={t('amazon.mapping.name')} placeholder={t('amazon.mapping.name')} value={mappingName} maxLength={80} onChange={(e) => setMappingName(e.target.value)} data-testid="amazon-mapping-name" />
                <Button icon={<SaveOutlined />} onClick={saveMapping} disabled={!mappingName.trim()} loading={action.busy === 'save'} data-testid="amazon-mapping-save">
                  {t('amazon.mapping.save')}
                </Button>
              </>
            ) : null}
            <Button type="primary" icon={<EyeOutlined />} onClick={runPreview} loading={action.busy === 'preview'} data-testid="amazon-preview">
              {t('amazon.preview.action')}
            </Button>
          </Flex>
        </Card>
      ) : null}

      {preview ? (
        <Card size="small" title={`3 · ${t('amazon.step.preview')}`} className="bo-ps-gap" data-testid="amazon-preview-card">
          <Space wrap className="bo-ps-gap" data-testid="amazon-preview-summary">
            <Typography.Text>{t('amazon.preview.summary', { rows: preview.rows_total, days: preview.days.length, invalid: preview.invalid, dropped: preview.dropped })}</Typography.Text>
            <Tag>{t('amazon.preview.delimiter', { delimiter: preview.delimiter === ';' ? ';' : ',' })}</Tag>
          </Space>
          {preview.already_imported ? (
            <Alert type="info" showIcon className="bo-ps-gap" data-testid="amazon-already" title={t('amazon.preview.already', { at: formatDateTime(preview.already_imported.created_at, locale), by: preview.already_imported.created_by ?? '—' })} />
          ) : null}
          {preview.replaces.length > 0 && !preview.already_imported ? <Alert type="warning" showIcon className="bo-ps-gap" data-testid="amazon-replaces" title={t('amazon.preview.replaces', { count: preview.replaces.length })} /> : null}
          {preview.invalid > 0 ? <Alert type="error" showIcon className="bo-ps-gap" data-testid="amazon-invalid" title={t('amazon.rows_invalid', { count: preview.invalid })} /> : null}
          <div className="bo-ps-scroll" tabIndex={0} role="region" aria-label={t('amazon.step.preview')}>
            <Table<AmazonRow> size="small" rowKey="line" dataSource={preview.rows} columns={rowColumns} pagination={preview.rows.length > 10 ? { pageSize: 10, showSizeChanger: false } : false} data-testid="amazon-preview-rows" />
          </div>
          {preview.rows_total > preview.rows.length ? <Typography.Text type="secondary">{t('amazon.preview.more', { shown: preview.rows.length, total: preview.rows_total })}</Typography.Text> : null}
          <Typography.Title level={5} className="bo-ps-gap-top">
            {t('amazon.preview.days')}
          </Typography.Title>
          <div className="bo-ps-scroll" tabIndex={0} role="region" aria-label={t('amazon.preview.days')}>
            <Table
              size="small"
              rowKey="day"
              dataSource={preview.days}
              pagination={preview.days.length > 10 ? { pageSize: 10, showSizeChanger: false } : false}
              columns={[
                { key: 'day', title: t('stats.col.day'), render: (_, d) => d.day },
                { key: 'impressions', title: t('stats.col.impressions'), align: 'right', render: (_, d) => formatNumber(d.impressions, locale, 0) },
                { key: 'revenue', title: t('stats.col.revenue'), align: 'right', render: (_, d) => <MoneyCell amount={d.revenue} currency={d.currency} /> },
              ]}
            />
          </div>
          {canWrite ? (
            <Button type="primary" icon={<ImportOutlined />} className="bo-ps-gap-top" onClick={runImport} disabled={preview.invalid > 0 || preview.days.length === 0} loading={action.busy === 'import'} data-testid="amazon-import">
              {t('amazon.import')}
            </Button>
          ) : null}
        </Card>
      ) : null}

      <Card size="small" title={t('amazon.imports')} data-testid="amazon-imports">
        <div className="bo-ps-scroll" tabIndex={0} role="region" aria-label={t('amazon.imports')}>
          <Table<AmazonImport>
            size="small"
            rowKey="id"
            loading={imports.isFetching}
            dataSource={imports.data?.items ?? []}
            locale={{ emptyText: t('amazon.imports.empty') }}
            pagination={{ current: importsPage, pageSize: 10, total: imports.data?.total ?? 0, showSizeChanger: false, onChange: (p) => update({ page: p > 1 ? String(p) : null }) }}
            onRow={(i) => ({ 'data-testid': `amazon-import-${i.id}` }) as HTMLAttributes<HTMLElement>}
            columns={[
              { key: 'file', title: t('amazon.imports.file'), render: (_, i) => <span className="bo-ps-break">{i.file_name}</span> },
              { key: 'partner', title: t('amazon.imports.partner'), render: (_, i) => i.partner },
              { key: 'range', title: t('amazon.imports.range'), render: (_, i) => <span className="bo-ps-nowrap">{`${i.first_day} – ${i.last_day}`}</span> },
              { key: 'days', title: t('amazon.imports.days'), align: 'right', render: (_, i) => i.days },
              { key: 'rows', title: t('amazon.imports.rows'), align: 'right', render: (_, i) => i.rows },
              { key: 'replaced', title: t('amazon.imports.replaced'), align: 'right', render: (_, i) => i.replaced },
              { key: 'by', title: t('amazon.imports.by'), render: (_, i) => i.created_by ?? '—' },
              { key: 'at', title: t('amazon.imports.at'), render: (_, i) => formatDateTime(i.created_at, locale) },
              { key: 'state', title: t('amazon.imports.state'), render: (_, i) => <StatusTag tone={i.state === 'imported' ? 'ok' : 'off'}>{t(`amazon.imports.state.${i.state}`)}</StatusTag> },
              ...(canWrite
                ? [
                    {
                      key: 'undo',
                      title: '',
                      render: (_: unknown, i: AmazonImport) =>
                        i.state === 'imported' ? (
                          <Button size="small" icon={<UndoOutlined />} onClick={() => undo(i)} aria-label={`${t('amazon.undo')} ${i.file_name}`} data-testid={`amazon-undo-${i.id}`}>
                            {t('amazon.undo')}
                          </Button>
                        ) : null,
                    },
                  ]
                : []),
            ]}
          />
        </div>
      </Card>
    </Page>
  );
}
