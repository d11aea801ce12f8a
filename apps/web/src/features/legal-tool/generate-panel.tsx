/**
 * Generating a document (the "Generate" tab): a publisher or a demand partner, the template's
 * version and the language; the API fills every placeholder from the records and lists what is
 * missing (which placeholder, which record, a link to fix it) before anything is generated. A
 * missing value may be typed for this document only (kept with it); the API refuses to generate
 * while one is still missing, and checks the typed values as this form does. The documents made
 * from the template are listed below with their download.
 */
import {
  manualValueProblem,
  manualValuesErrors,
  placeholderToken,
  type CounterpartyType,
  type LegalLanguage,
  type ResolvedPlaceholder,
  type TemplateParty,
} from '@backoffice/core/legal';
import { DownloadOutlined, ExportOutlined, FilePdfOutlined } from '@ant-design/icons';
import {
  Alert,
  Button,
  Descriptions,
  Empty,
  Form,
  Input,
  List,
  Radio,
  Select,
  Space,
  Spin,
  Tag,
  Typography,
} from 'antd';
import type { TFunction } from 'i18next';
import { useMemo, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { DateInput } from '../../components/date-input.tsx';
import { useLocale } from '../../components/use-locale.ts';
import { useNotice } from '../../components/use-notice.ts';
import { errorText, isSessionError } from '../../lib/api.ts';
import { FetchError } from '../../lib/fetch-client.ts';
import { usePermission } from '../../lib/permission.tsx';
import { useDebouncedValue } from '../../lib/use-debounced-value.ts';
import { formatDateTime } from '../../resources/resource-cells.tsx';
import {
  downloadDocument,
  newRequestId,
  useCheck,
  useCounterparties,
  useLegalMutations,
  useRecentDocuments,
  useVersions,
  type CheckParams,
} from './legal-api.ts';

function sourceText(t: TFunction, p: ResolvedPlaceholder): string {
  const s = p.source;
  const record = s.name ? `${t(`legal.source.${s.type}`)} “${s.name}”` : t(`legal.source.${s.type}`);
  return s.field ? `${record} · ${t(`legal.record_field.${s.field}`)}` : record;
}

function MissingInput({
  p,
  value,
  error,
  onChange,
}: {
  p: ResolvedPlaceholder;
  value: string;
  error: string | null;
  onChange: (v: string) => void;
}) {
  const { t } = useTranslation();
  const id = `legal-value-${p.key.replace('.', '-')}`;
  const label = t(`legal.placeholder.${p.key}`);
  return (
    <Form.Item
      label={label}
      htmlFor={id}
      validateStatus={error ? 'error' : undefined}
      help={error ? t(error) : undefined}
      layout="vertical"
      className="bo-legal-missing__input"
    >
      {p.type === 'date' ? (
        <div data-testid={id}>
          <DateInput
            id={id}
            allowFuture
            value={value || null}
            onChange={(v) => onChange(v ?? '')}
            status={error ? 'error' : undefined}
          />
        </div>
      ) : (
        <Input
          id={id}
          value={value}
          maxLength={300}
          onChange={(e) => onChange(e.target.value)}
          suffix={p.type === 'percent' ? '%' : undefined}
          data-testid={id}
        />
      )}
    </Form.Item>
  );
}

export function GeneratePanel({
  templateId,
  party,
  currentVersion,
}: {
  templateId: number;
  party: TemplateParty;
  currentVersion: number | null;
}) {
  const { t } = useTranslation();
  const locale = useLocale();
  const notice = useNotice();
  const canWrite = usePermission('/v1/legal', 'write');
  const versions = useVersions(templateId);
  const { generate } = useLegalMutations(templateId);
  const [type, setType] = useState<CounterpartyType>(
    party === 'demand_partner' ? 'demand_partner' : 'publisher',
  );
  const [search, setSearch] = useState('');
  const q = useDebouncedValue(search, 300);
  const counterparties = useCounterparties(type, q);
  const [counterparty, setCounterparty] = useState<{ id: number; name: string } | null>(null);
  const [version, setVersion] = useState<number | null>(currentVersion);
  const [language, setLanguage] = useState<LegalLanguage>(locale);
  const [values, setValues] = useState<Record<string, string>>({});
  const [serverErrors, setServerErrors] = useState<Record<string, string>>({});
  const [busy, setBusy] = useState(false);
  const [made, setMade] = useState<{ id: number; file_name: string } | null>(null);
  const requestId = useRef<string>(newRequestId());
  const recent = useRecentDocuments(templateId);

  const params: CheckParams | null =
    counterparty && version !== null
      ? { templateId, version, language, counterparty_type: type, counterparty_id: counterparty.id }
      : null;
  const check = useCheck(params);
  const missing = useMemo(() => check.data?.missing ?? [], [check.data]);
  const typed = useMemo(
    () =>
      Object.fromEntries(
        Object.entries(values).filter(([k, v]) => v.trim() !== '' && missing.some((m) => m.key === k)),
      ),
    [values, missing],
  );
  const localErrors = useMemo(() => {
    const errors = manualValuesErrors(typed);
    for (const m of missing) if (!typed[m.key]) errors[`values.${m.key}`] ??= 'legal.value_required_here';
    return errors;
  }, [typed, missing]);
  const stillMissing = missing.filter(
    (m) => !typed[m.key] || manualValueProblem(m.key, typed[m.key]!) !== null,
  );

  /** A change of what the document is for: a new request id, and what was typed goes. */
  const changed = () => {
    requestId.current = newRequestId();
    setMade(null);
    setServerErrors({});
  };

  const submit = async () => {
    if (!params) return;
    setBusy(true);
    try {
      const doc = await generate({
        template_id: templateId,
        version: params.version,
        language,
        counterparty_type: type,
        counterparty_id: params.counterparty_id,
        values: typed,
        request_id: requestId.current,
      });
      setMade({ id: doc.id, file_name: doc.file_name });
      void notice.success(t(doc.already ? 'legal.document_already' : 'legal.document_generated'));
      requestId.current = newRequestId();
    } catch (error) {
      if (isSessionError(error)) return;
      if (error instanceof FetchError && error.details.errors) setServerErrors(error.details.errors);
      if (error instanceof FetchError && error.key === 'legal.data_missing') void check.refetch();
      void notice.error(errorText(error));
    } finally {
      setBusy(false);
    }
  };

  if (currentVersion === null) return <Empty description={t('legal.generate.no_version')} />;

  const found = check.data?.placeholders.filter((p) => !p.missing) ?? [];
  const versionOptions = (versions.data ?? []).map((v) => ({
    value: v.number,
    label:
      v.number === currentVersion
        ? t('legal.generate.version_current', { number: v.number })
        : `v${v.number}`,
  }));

  return (
    <div className="bo-legal-generate" data-testid="legal-generate">
      <div className="bo-legal-generate__form">
        {party === 'any' ? (
          <Form.Item label={t('legal.generate.counterparty_type')} layout="vertical">
            <Radio.Group
              value={type}
              onChange={(e) => {
                setType(e.target.value as CounterpartyType);
                setCounterparty(null);
                setSearch('');
                changed();
              }}
              options={[
                { value: 'publisher', label: t('legal.document.counterparty_type.publisher') },
                { value: 'demand_partner', label: t('legal.document.counterparty_type.demand_partner') },
              ]}
              data-testid="legal-counterparty-type"
            />
          </Form.Item>
        ) : null}
        <Form.Item label={t(`legal.generate.pick_${type}`)} htmlFor="legal-counterparty" layout="vertical">
          <Select
            id="legal-counterparty"
            showSearch={{ filterOption: false, onSearch: setSearch }}
            value={counterparty?.id ?? null}
            placeholder={t('legal.generate.search')}
            loading={counterparties.isFetching}
            notFoundContent={
              counterparties.isFetching ? <Spin size="small" /> : t('legal.generate.none_found')
            }
            options={[
              ...(counterparty && !(counterparties.data ?? []).some((c) => c.id === counterparty.id)
                ? [{ value: counterparty.id, label: counterparty.name }]
                : []),
              ...(counterparties.data ?? []).map((c) => ({
                value: c.id,
                label: c.company ? `${c.name} · ${c.company}` : c.name,
              })),
            ]}
            onChange={(id: number) => {
              const c = counterparties.data?.find((o) => o.id === id);
              setCounterparty(c ? { id: c.id, name: c.name } : null);
              setValues({});
              changed();
            }}
            data-testid="legal-counterparty"
          />
        </Form.Item>
        <Space wrap size="large" align="start">
          <Form.Item label={t('legal.generate.version')} htmlFor="legal-version" layout="vertical">
            <Select
              id="legal-version"
              value={version}
              options={versionOptions}
              onChange={(v: number) => {
                setVersion(v);
                changed();
              }}
              style={{ minWidth: 180 }}
              data-testid="legal-version"
            />
          </Form.Item>
          <Form.Item label={t('legal.generate.language')} layout="vertical">
            <Radio.Group
              value={language}
              optionType="button"
              onChange={(e) => {
                setLanguage(e.target.value as LegalLanguage);
                changed();
              }}
              options={[
                { value: 'en', label: t('legal.document.language.en') },
                { value: 'es', label: t('legal.document.language.es') },
              ]}
              data-testid="legal-language"
            />
          </Form.Item>
        </Space>
      </div>

      {params === null ? <Alert type="info" showIcon title={t('legal.generate.pick_first')} /> : null}
      {check.isError ? <Alert type="error" showIcon title={errorText(check.error)} /> : null}
      {params && check.isPending ? <Spin /> : null}
      {check.data ? (
        <>
          {missing.length > 0 ? (
            <Alert
              type="warning"
              showIcon
              className="bo-legal-gap"
              data-testid="legal-missing"
              title={t('legal.generate.missing_title', { count: missing.length })}
              description={
                <div>
                  <Typography.Paragraph>{t('legal.generate.missing_help')}</Typography.Paragraph>
                  <List
                    className="bo-legal-missing"
                    dataSource={missing}
                    renderItem={(p) => (
                      <List.Item key={p.key} data-testid={`legal-missing-${p.key}`}>
                        <div className="bo-legal-missing__item">
                          <div>
                            <Typography.Text strong>{t(`legal.placeholder.${p.key}`)}</Typography.Text>{' '}
                            <Typography.Text code>{placeholderToken(p.key)}</Typography.Text>
                          </div>
                          <div>
                            {t(p.reason ?? 'legal.missing.empty')} · {sourceText(t, p)}
                            {p.source.link ? (
                              <>
                                {' · '}
                                <Link
                                  to={`/${locale}${p.source.link}`}
                                  target="_blank"
                                  rel="noopener"
                                  data-testid={`legal-fix-${p.key}`}
                                >
                                  {t('legal.generate.fix')} <ExportOutlined aria-hidden />
                                </Link>
                              </>
                            ) : null}
                          </div>
                          {canWrite ? (
                            <MissingInput
                              p={p}
                              value={values[p.key] ?? ''}
                              error={
                                serverErrors[`values.${p.key}`] ??
                                (values[p.key] ? (localErrors[`values.${p.key}`] ?? null) : null)
                              }
                              onChange={(v) => {
                                setValues((prev) => ({ ...prev, [p.key]: v }));
                                setServerErrors({});
                                requestId.current = newRequestId();
                              }}
                            />
                          ) : null}
                        </div>
                      </List.Item>
                    )}
                  />
                </div>
              }
            />
          ) : (
            <Alert
              type="success"
              showIcon
              className="bo-legal-gap"
              title={t('legal.generate.all_found')}
              data-testid="legal-all-found"
            />
          )}
          {found.length > 0 ? (
            <Descriptions
              size="small"
              bordered
              column={1}
              className="bo-legal-gap"
              title={t('legal.generate.found_title')}
              data-testid="legal-found"
              items={found.map((p) => ({
                key: p.key,
                label: t(`legal.placeholder.${p.key}`),
                children: (
                  <>
                    <div>{p.value}</div>
                    <Typography.Text type="secondary" className="bo-legal-source">
                      {sourceText(t, p)}
                    </Typography.Text>
                  </>
                ),
              }))}
            />
          ) : null}
          {canWrite ? (
            <Space wrap className="bo-legal-gap">
              <Button
                type="primary"
                icon={<FilePdfOutlined />}
                loading={busy}
                disabled={stillMissing.length > 0}
                onClick={() => void submit()}
                data-testid="legal-generate-submit"
              >
                {t('legal.generate.submit')}
              </Button>
              {stillMissing.length > 0 ? (
                <Typography.Text type="secondary">
                  {t('legal.generate.fill_first', { count: stillMissing.length })}
                </Typography.Text>
              ) : null}
            </Space>
          ) : null}
          {made ? (
            <Alert
              type="success"
              showIcon
              className="bo-legal-gap"
              data-testid="legal-made"
              title={t('legal.generate.made', { name: made.file_name })}
              action={
                <Button
                  icon={<DownloadOutlined />}
                  onClick={() =>
                    void downloadDocument(made.id, made.file_name).catch(
                      (e: unknown) => void notice.error(errorText(e)),
                    )
                  }
                  data-testid="legal-download"
                >
                  {t('legal.download')}
                </Button>
              }
            />
          ) : null}
        </>
      ) : null}

      <section className="bo-legal-recent" aria-labelledby="legal-recent-title">
        <Typography.Title level={3} id="legal-recent-title" className="bo-legal-subtitle">
          {t('legal.generate.recent')}
        </Typography.Title>
        {recent.isError ? <Alert type="error" showIcon title={errorText(recent.error)} /> : null}
        {recent.isPending ? <Spin /> : null}
        {recent.data && recent.data.items.length === 0 ? (
          <Typography.Paragraph>{t('legal.generate.recent_empty')}</Typography.Paragraph>
        ) : null}
        {recent.data && recent.data.items.length > 0 ? (
          <List
            dataSource={recent.data.items}
            data-testid="legal-recent"
            renderItem={(d) => (
              <List.Item key={d.id}>
                <div className="bo-legal-recent__item">
                  <div>
                    <Link to={`/${locale}/utils/legal_tool/documents/${d.id}`}>{d.counterparty_name}</Link>{' '}
                    <Typography.Text>
                      · v{d.template_version} · {t(`legal.document.language.${d.language}`)}
                    </Typography.Text>
                    {d.manual_count > 0 ? (
                      <Tag className="bo-legal-recent__tag">
                        {t('legal.generate.typed_count', { count: d.manual_count })}
                      </Tag>
                    ) : null}
                  </div>
                  <Typography.Text type="secondary">
                    {d.author_id_label ?? t('resource.nobody')} · {formatDateTime(d.created_at, locale)}
                  </Typography.Text>
                </div>
                <Button
                  size="small"
                  icon={<DownloadOutlined />}
                  aria-label={t('legal.download_named', { name: d.file_name })}
                  onClick={() =>
                    void downloadDocument(d.id, d.file_name).catch(
                      (e: unknown) => void notice.error(errorText(e)),
                    )
                  }
                />
              </List.Item>
            )}
          />
        ) : null}
      </section>
    </div>
  );
}
