/**
 * One person's signature: the form (template, language, name, title, department, phones, mail)
 * next to the live preview in a light and a dark mail client, and the outputs: Copy (the API's HTML
 * as text/html with text/plain), Copy HTML source, Download .html. The form is checked with core's
 * schema (the API's), errors next to their fields, nothing typed is lost; a save with a stale
 * version opens the conflict dialog; leaving with unsaved changes asks first.
 */
import { CopyOutlined, DeleteOutlined, DownloadOutlined, PlusOutlined, SaveOutlined } from '@ant-design/icons';
import {
  formatPhone,
  MAX_PHONES,
  normalizePhone,
  PHONE_KINDS,
  renderSignatureHtml,
  signatureFieldsSchema,
  signatureFileName,
  signatureHtmlDocument,
  SIGNATURE_LANGUAGES,
  type PersonSignature,
  type SignatureFields,
  type SignatureTemplate,
} from '@backoffice/core/signatures';
import { issuesToErrors } from '@backoffice/core/validation-errors';
import { useQueryClient } from '@tanstack/react-query';
import { Alert, Button, Card, Form, Input, Select, Typography } from 'antd';
import { useEffect, useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useLocale } from '../../components/use-locale.ts';
import { useNotice } from '../../components/use-notice.ts';
import { api, errorText, isSessionError } from '../../lib/api.ts';
import { saveBlob } from '../../lib/download.ts';
import { FetchError } from '../../lib/fetch-client.ts';
import { ConflictModal } from '../../resources/conflict-modal.tsx';
import { formatDateTime } from '../../resources/resource-cells.tsx';
import { SignaturePreview } from './signature-preview.tsx';
import { copySignature, copyText, detailKey, detailPath, renderOnServer, renderTemplate, type EditorSource } from './signatures-api.ts';

export interface SignatureValues {
  template_id: number | null;
  language: 'en' | 'es';
  name: string;
  title: string;
  department: string;
  phones: { kind: 'office' | 'mobile'; number: string }[];
  mail: string;
}

export const valuesOf = (s: PersonSignature): SignatureValues => ({
  template_id: s.template_id,
  language: s.language,
  name: s.name,
  title: s.title,
  department: s.department,
  phones: s.phones.map((p) => ({ kind: p.kind, number: formatPhone(p.number) })),
  mail: s.mail,
});

/** The fields as typed, for the live preview: phones that are not valid yet are left out. */
export function previewFieldsOf(v: SignatureValues): SignatureFields {
  return {
    template_id: v.template_id,
    language: v.language,
    name: v.name.trim(),
    title: v.title.trim(),
    department: v.department.trim(),
    phones: v.phones.flatMap((p) => {
      const n = normalizePhone(p.number);
      return 'e164' in n ? [{ kind: p.kind, number: n.e164 }] : [];
    }),
    mail: v.mail.trim().toLowerCase(),
  };
}

/** The template a signature uses: its own, else the default. */
export function templateOf(templates: readonly SignatureTemplate[], id: number | null): SignatureTemplate | null {
  return (id === null ? templates.find((t) => t.is_default) : templates.find((t) => t.id === id)) ?? null;
}

/** Core's HTML of a signature in both schemes, with the labels in its language. */
export function useRendered(fields: SignatureFields, template: SignatureTemplate | null, logo?: { url: string; width: number; height: number } | null) {
  const { t } = useTranslation();
  return useMemo(() => {
    const labels = { office: t('signatures.label.office', { lng: fields.language }), mobile: t('signatures.label.mobile', { lng: fields.language }) };
    const rt = renderTemplate(template, logo);
    return { html: renderSignatureHtml(fields, rt, { labels }), dark: renderSignatureHtml(fields, rt, { labels, scheme: 'dark' }) };
  }, [fields, template, logo, t]);
}

type Errors = Record<string, string>;

export function SignatureEditor({
  source,
  initial,
  templates,
  testId = 'signature',
  onDirtyChange,
}: {
  source: EditorSource;
  initial: PersonSignature;
  templates: readonly SignatureTemplate[];
  testId?: string;
  /** The page asks before leaving while any editor has unsaved changes (one router blocker for all). */
  onDirtyChange?: (dirty: boolean) => void;
}) {
  const { t } = useTranslation();
  const locale = useLocale();
  const notice = useNotice();
  const queryClient = useQueryClient();
  const [base, setBase] = useState(initial);
  const [values, setValues] = useState<SignatureValues>(() => valuesOf(initial));
  const [touched, setTouched] = useState<Set<string>>(new Set());
  const [submitted, setSubmitted] = useState(false);
  const [serverErrors, setServerErrors] = useState<Errors>({});
  const [busy, setBusy] = useState<null | 'save' | 'copy' | 'source' | 'download'>(null);
  const [conflict, setConflict] = useState<PersonSignature | null>(null);
  const parsed = useMemo(() => signatureFieldsSchema.safeParse(values, { reportInput: true }), [values]);
  const clientErrors: Errors = parsed.success ? {} : issuesToErrors(parsed.error.issues);
  const savedFields = useMemo(() => JSON.stringify(signatureFieldsSchema.parse(valuesOf(base))), [base]);
  const dirty = parsed.success ? JSON.stringify(parsed.data) !== savedFields : true;
  useEffect(() => {
    onDirtyChange?.(dirty);
    return () => onDirtyChange?.(false);
  }, [dirty, onDirtyChange]);

  const template = templateOf(templates, values.template_id);
  const preview = useMemo(() => previewFieldsOf(values), [values]);
  const rendered = useRendered(preview, template);

  const errorAt = (path: string) => {
    const key = serverErrors[path] ?? ((submitted || touched.has(path)) ? clientErrors[path] : undefined);
    return key ? t(key) : undefined;
  };
  const itemProps = (path: string) => {
    const help = errorAt(path);
    return { validateStatus: help ? ('error' as const) : undefined, help };
  };
  const set = (patch: Partial<SignatureValues>) => {
    setValues((v) => ({ ...v, ...patch }));
    setServerErrors({});
  };
  const touch = (path: string) => setTouched((s) => new Set(s).add(path));
  const setPhone = (i: number, patch: Partial<SignatureValues['phones'][number]>) => set({ phones: values.phones.map((p, j) => (j === i ? { ...p, ...patch } : p)) });

  /** The fields as the API takes them, or null with the errors shown. */
  const checked = (): SignatureFields | null => {
    setSubmitted(true);
    return parsed.success ? parsed.data : null;
  };

  const handleError = (error: unknown) => {
    if (error instanceof FetchError && error.details.httpStatus === 409 && error.key === 'resource.conflict') {
      const current = (error.details.body as { data?: { current?: PersonSignature } } | undefined)?.data?.current;
      if (current) return setConflict(current);
    }
    if (error instanceof FetchError && error.details.errors && Object.keys(error.details.errors).length > 0) return setServerErrors(error.details.errors);
    if (!isSessionError(error)) void notice.error(errorText(error));
  };

  const save = async (version = base.version) => {
    const fields = checked();
    if (!fields || busy) return;
    setBusy('save');
    try {
      const answer = await api.request<{ signature: PersonSignature }>(detailPath(source), { method: 'PUT', body: { ...fields, version } });
      setBase(answer.signature);
      setValues(valuesOf(answer.signature));
      setSubmitted(false);
      setTouched(new Set());
      void queryClient.invalidateQueries({ queryKey: detailKey(source) });
      void queryClient.invalidateQueries({ queryKey: ['signatures', 'people'] });
      void notice.success(t('signatures.saved'));
    } catch (error) {
      handleError(error);
    } finally {
      setBusy(null);
    }
  };

  /** The API's rendering of what is typed (the authority for what leaves the app). */
  const output = async (kind: 'copy' | 'source' | 'download') => {
    const fields = checked();
    if (!fields || busy) return;
    setBusy(kind);
    try {
      const r = await renderOnServer(fields);
      if (kind === 'download') {
        saveBlob(new Blob([signatureHtmlDocument(r.html, fields.name)], { type: 'text/html' }), signatureFileName(fields.name));
        return;
      }
      try {
        if (kind === 'copy') await copySignature(r.html, r.text);
        else await copyText(r.html);
      } catch {
        void notice.error(t('signatures.copy_failed'));
        return;
      }
      void notice.success(t(kind === 'copy' ? 'signatures.copied' : 'signatures.source_copied'));
    } catch (error) {
      handleError(error);
    } finally {
      setBusy(null);
    }
  };

  const defaultTemplate = templates.find((x) => x.is_default);
  const templateOptions = [
    ...(defaultTemplate ? [{ value: 0, label: t('signatures.field.template_default', { name: defaultTemplate.name }) }] : []),
    ...templates.map((x) => ({ value: x.id, label: x.name })),
  ];

  return (
    <div className="bo-sig-layout" data-testid={`${testId}-editor`}>
      <Card size="small" title={base.name}>
        <Typography.Paragraph type="secondary" data-testid={`${testId}-saved-state`}>
          {base.version === 0
            ? t('signatures.never_saved')
            : base.updated_by?.name
              ? t('signatures.last_saved', { at: formatDateTime(base.updated_at, locale), name: base.updated_by.name })
              : t('signatures.saved_at', { at: formatDateTime(base.updated_at, locale) })}
        </Typography.Paragraph>
        {templates.length === 0 ? <Alert type="info" showIcon title={t('signatures.no_template')} className="bo-data-error" /> : null}
        <Form layout="vertical" component="div">
          {templates.length > 0 ? (
            <Form.Item label={t('signatures.field.template')} htmlFor={`${testId}-template`} {...itemProps('template_id')}>
              <Select id={`${testId}-template`} value={values.template_id ?? 0} options={templateOptions} onChange={(v: number) => set({ template_id: v === 0 ? null : v })} data-testid={`${testId}-template`} />
            </Form.Item>
          ) : null}
          <Form.Item label={t('signatures.field.language')} htmlFor={`${testId}-language`} {...itemProps('language')}>
            <Select
              id={`${testId}-language`}
              value={values.language}
              options={SIGNATURE_LANGUAGES.map((l) => ({ value: l, label: t(`signatures.language.${l}`) }))}
              onChange={(v: 'en' | 'es') => set({ language: v })}
              data-testid={`${testId}-language`}
            />
          </Form.Item>
          <Form.Item label={t('signatures.field.name')} htmlFor={`${testId}-name`} required {...itemProps('name')}>
            <Input id={`${testId}-name`} value={values.name} maxLength={120} onChange={(e) => set({ name: e.target.value })} onBlur={() => touch('name')} data-testid={`${testId}-name`} />
          </Form.Item>
          <Form.Item label={t('signatures.field.title')} htmlFor={`${testId}-title`} {...itemProps('title')}>
            <Input id={`${testId}-title`} value={values.title} maxLength={120} onChange={(e) => set({ title: e.target.value })} onBlur={() => touch('title')} data-testid={`${testId}-title`} />
          </Form.Item>
          <Form.Item label={t('signatures.field.department')} htmlFor={`${testId}-department`} {...itemProps('department')}>
            <Input id={`${testId}-department`} value={values.department} maxLength={120} onChange={(e) => set({ department: e.target.value })} onBlur={() => touch('department')} data-testid={`${testId}-department`} />
          </Form.Item>
          <Form.Item label={t('signatures.field.phones')} extra={t('signatures.phone_help')} {...itemProps('phones')}>
            <div data-testid={`${testId}-phones`}>
              {values.phones.map((p, i) => {
                const help = errorAt(`phones.${i}.number`);
                return (
                  <div key={i}>
                    <div className="bo-sig-phone">
                      <Select aria-label={t('signatures.field.phone_kind')} value={p.kind} options={PHONE_KINDS.map((k) => ({ value: k, label: t(`signatures.phone_kind.${k}`) }))} onChange={(v: 'office' | 'mobile') => setPhone(i, { kind: v })} />
                      <Input
                        className="bo-sig-phone__number"
                        aria-label={t('signatures.field.phone_number')}
                        aria-invalid={help ? true : undefined}
                        status={help ? 'error' : undefined}
                        value={p.number}
                        inputMode="tel"
                        autoComplete="tel"
                        placeholder="+34 612 34 56 78"
                        onChange={(e) => setPhone(i, { number: e.target.value })}
                        onBlur={() => touch(`phones.${i}.number`)}
                        data-testid={`${testId}-phone-${i}`}
                      />
                      <Button aria-label={t('signatures.phone_remove')} icon={<DeleteOutlined />} onClick={() => set({ phones: values.phones.filter((_, j) => j !== i) })} />
                    </div>
                    {help ? (
                      <div className="ant-form-item-explain-error" role="alert" data-testid={`${testId}-phone-${i}-error`}>
                        {help}
                      </div>
                    ) : null}
                  </div>
                );
              })}
              {values.phones.length < MAX_PHONES ? (
                <Button icon={<PlusOutlined />} onClick={() => set({ phones: [...values.phones, { kind: values.phones.length === 0 ? 'mobile' : 'office', number: '' }] })} data-testid={`${testId}-phone-add`}>
                  {t('signatures.phone_add')}
                </Button>
              ) : null}
            </div>
          </Form.Item>
          <Form.Item label={t('signatures.field.mail')} htmlFor={`${testId}-mail`} required {...itemProps('mail')}>
            <Input id={`${testId}-mail`} type="email" value={values.mail} maxLength={254} onChange={(e) => set({ mail: e.target.value })} onBlur={() => touch('mail')} data-testid={`${testId}-mail`} />
          </Form.Item>
          {serverErrors._ ? <Alert type="error" showIcon title={t(serverErrors._)} /> : null}
          <Button type="primary" icon={<SaveOutlined />} loading={busy === 'save'} onClick={() => void save()} data-testid={`${testId}-save`}>
            {t('signatures.save')}
          </Button>
        </Form>
      </Card>
      <Card size="small" title={t('signatures.preview')}>
        <SignaturePreview html={rendered.html} darkHtml={rendered.dark} testId={`${testId}-preview`} />
        <div className="bo-sig-actions">
          <Button type="primary" icon={<CopyOutlined />} loading={busy === 'copy'} onClick={() => void output('copy')} data-testid={`${testId}-copy`}>
            {t('signatures.copy')}
          </Button>
          <Button icon={<CopyOutlined />} loading={busy === 'source'} onClick={() => void output('source')} data-testid={`${testId}-copy-source`}>
            {t('signatures.copy_source')}
          </Button>
          <Button icon={<DownloadOutlined />} loading={busy === 'download'} onClick={() => void output('download')} data-testid={`${testId}-download`}>
            {t('signatures.download')}
          </Button>
        </div>
        <Typography.Paragraph type="secondary" style={{ marginTop: 8, marginBottom: 0 }}>
          {t('signatures.copy_help')}
        </Typography.Paragraph>
      </Card>
      <ConflictModal
        open={conflict !== null}
        by={conflict?.updated_by}
        at={conflict?.updated_at}
        onCancel={() => setConflict(null)}
        onReload={() => {
          setBase(conflict!);
          setValues(valuesOf(conflict!));
          setConflict(null);
        }}
        onOverwrite={() => {
          const version = conflict!.version;
          setConflict(null);
          void save(version);
        }}
        testId={testId}
      />
    </div>
  );
}
