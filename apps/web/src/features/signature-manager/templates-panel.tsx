/**
 * The company templates (write on /v1/signatures): pick one or start a new one; its form (name,
 * default, company, address, website, legal notice en/es, social links, colours checked for both
 * modes, logo and its width) next to the preview of the editor's own signature on it. Checked with
 * core's schema (the API's) before sending; a stale version opens the conflict dialog; delete asks.
 */
import { DeleteOutlined, PlusOutlined, SaveOutlined, UploadOutlined } from '@ant-design/icons';
import {
  LOGO_MAX_BYTES,
  LOGO_MAX_WIDTH,
  LOGO_MIN_WIDTH,
  MAX_SOCIAL_LINKS,
  NETWORK_NAMES,
  SOCIAL_NETWORKS,
  templateBodySchema,
  type PersonSignature,
  type SignatureTemplate,
  type SocialNetwork,
} from '@backoffice/core/signatures';
import { issuesToErrors } from '@backoffice/core/validation-errors';
import { useQueryClient } from '@tanstack/react-query';
import { Alert, App, Button, Card, Checkbox, ColorPicker, Empty, Form, Input, InputNumber, Select, Typography, Upload } from 'antd';
import { useEffect, useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useLocale } from '../../components/use-locale.ts';
import { useNotice } from '../../components/use-notice.ts';
import { api, errorText, isSessionError } from '../../lib/api.ts';
import { FetchError } from '../../lib/fetch-client.ts';
import { ConflictModal } from '../../resources/conflict-modal.tsx';
import { formatDateTime } from '../../resources/resource-cells.tsx';
import { previewFieldsOf, useRendered, valuesOf } from './signature-editor.tsx';
import { SignaturePreview } from './signature-preview.tsx';
import { templatesKey } from './signatures-api.ts';

interface TemplateValues {
  name: string;
  is_default: boolean;
  company_name: string;
  address: string;
  website: string;
  legal_en: string;
  legal_es: string;
  social: { network: SocialNetwork; url: string }[];
  text_color: string;
  accent_color: string;
  logo_width: number | null;
}

type NewLogo = { url: string; width: number; height: number } | null | undefined;

const EMPTY: TemplateValues = {
  name: '',
  is_default: false,
  company_name: '',
  address: '',
  website: '',
  legal_en: '',
  legal_es: '',
  social: [],
  text_color: '#333333',
  accent_color: '#1a4f8b',
  logo_width: 140,
};

const valuesOfTemplate = (t: SignatureTemplate): TemplateValues => ({
  name: t.name,
  is_default: t.is_default,
  company_name: t.company_name,
  address: t.address,
  website: t.website,
  legal_en: t.legal_en,
  legal_es: t.legal_es,
  social: t.social.map((s) => ({ ...s })),
  text_color: t.text_color,
  accent_color: t.accent_color,
  logo_width: t.logo_width,
});

const HEX = /^#[0-9a-f]{6}$/i;

/** A file as a data URL with its pixel size (read by the browser; the API reads it again). */
function readLogo(file: File): Promise<{ url: string; width: number; height: number }> {
  return new Promise((resolve, reject) => {
    const reader = new FileReader();
    reader.onerror = () => reject(new Error('unreadable'));
    reader.onload = () => {
      const url = String(reader.result);
      const img = new Image();
      img.onload = () => resolve({ url, width: img.naturalWidth, height: img.naturalHeight });
      img.onerror = () => reject(new Error('unreadable'));
      img.src = url;
    };
    reader.readAsDataURL(file);
  });
}

export function TemplatesPanel({ templates, me, onDirtyChange }: { templates: readonly SignatureTemplate[]; me: PersonSignature; onDirtyChange: (dirty: boolean) => void }) {
  const { t } = useTranslation();
  const locale = useLocale();
  const notice = useNotice();
  const { modal } = App.useApp();
  const queryClient = useQueryClient();
  const [selected, setSelected] = useState<number | 'new'>(() => templates.find((x) => x.is_default)?.id ?? 'new');
  const current = selected === 'new' ? null : (templates.find((x) => x.id === selected) ?? null);
  const [values, setValues] = useState<TemplateValues>(() => (current ? valuesOfTemplate(current) : EMPTY));
  const [logo, setLogo] = useState<NewLogo>(undefined);
  const [version, setVersion] = useState(current?.version ?? 0);
  const [submitted, setSubmitted] = useState(false);
  const [serverErrors, setServerErrors] = useState<Record<string, string>>({});
  const [busy, setBusy] = useState(false);
  const [conflict, setConflict] = useState<SignatureTemplate | null>(null);

  const body = { ...values, logo: logo === undefined ? undefined : (logo?.url ?? null), version };
  const parsed = templateBodySchema.safeParse(body, { reportInput: true });
  const clientErrors = parsed.success ? {} : issuesToErrors(parsed.error.issues);
  const baseline = JSON.stringify(current ? valuesOfTemplate(current) : EMPTY);
  const dirty = logo !== undefined || JSON.stringify(values) !== baseline;
  useEffect(() => {
    onDirtyChange(dirty);
    return () => onDirtyChange(false);
  }, [dirty, onDirtyChange]);

  const load = (id: number | 'new', list: readonly SignatureTemplate[] = templates) => {
    const next = id === 'new' ? null : (list.find((x) => x.id === id) ?? null);
    setSelected(id);
    setValues(next ? valuesOfTemplate(next) : { ...EMPTY, is_default: list.length === 0 });
    setVersion(next?.version ?? 0);
    setLogo(undefined);
    setSubmitted(false);
    setServerErrors({});
  };
  // The template shown was deleted (here or by someone else, seen on a refetch): show the default.
  useEffect(() => {
    if (selected !== 'new' && !templates.some((x) => x.id === selected)) load(templates.find((x) => x.is_default)?.id ?? 'new');
    // eslint-disable-next-line react-hooks/exhaustive-deps -- only a change of the list can remove the template shown
  }, [templates]);

  const pick = (id: number | 'new') => {
    if (!dirty) return load(id);
    modal.confirm({
      title: t('resource.unsaved_title'),
      content: t('resource.unsaved_body'),
      okText: t('resource.unsaved_leave'),
      cancelText: t('resource.unsaved_stay'),
      okButtonProps: { danger: true },
      onOk: () => load(id),
    });
  };

  const set = (patch: Partial<TemplateValues>) => {
    setValues((v) => ({ ...v, ...patch }));
    setServerErrors({});
  };
  const errorAt = (path: string) => {
    const key = serverErrors[path] ?? (submitted ? clientErrors[path] : undefined);
    return key ? t(key) : undefined;
  };
  const item = (path: string) => {
    const help = errorAt(path);
    return { validateStatus: help ? ('error' as const) : undefined, help };
  };
  const colorItem = (path: 'text_color' | 'accent_color') => {
    // Colours are checked as they are picked: the contrast rule is the point of the field.
    const key = serverErrors[path] ?? clientErrors[path];
    return { validateStatus: key ? ('error' as const) : undefined, help: key ? t(key) : undefined };
  };

  // The preview: the editor's own signature on the template as edited.
  const previewTemplate: SignatureTemplate = {
    id: current?.id ?? 0,
    ...values,
    text_color: HEX.test(values.text_color) ? values.text_color : '#333333',
    accent_color: HEX.test(values.accent_color) ? values.accent_color : '#1a4f8b',
    logo_width: Math.min(LOGO_MAX_WIDTH, Math.max(LOGO_MIN_WIDTH, values.logo_width ?? 140)),
    logo_path: current?.logo_path ?? null,
    logo_size: current?.logo_size ?? null,
    version,
    updated_at: current?.updated_at ?? '',
    updated_by: current?.updated_by ?? { id: null, name: null },
  };
  const fields = useMemo(() => previewFieldsOf(valuesOf(me)), [me]);
  const rendered = useRendered(fields, previewTemplate.company_name ? previewTemplate : null, logo);

  const save = async (withVersion = version) => {
    setSubmitted(true);
    if (!parsed.success || busy) return;
    setBusy(true);
    try {
      const payload = { ...parsed.data, version: withVersion };
      const saved =
        current === null
          ? await api.request<SignatureTemplate>('signatures/templates', { method: 'POST', body: payload })
          : await api.request<SignatureTemplate>('signatures/templates/:id', { method: 'PUT', params: { id: current.id }, body: payload });
      const list = await queryClient.fetchQuery({ queryKey: templatesKey, queryFn: () => api.request<SignatureTemplate[]>('signatures/templates') });
      load(saved.id, list);
      void queryClient.invalidateQueries({ queryKey: ['signatures', 'detail'] });
      void notice.success(t('signatures.template_saved'));
    } catch (error) {
      if (error instanceof FetchError && error.details.httpStatus === 409 && error.key === 'resource.conflict') {
        const theirs = (error.details.body as { data?: { current?: SignatureTemplate } } | undefined)?.data?.current;
        if (theirs) setConflict(theirs);
      } else if (error instanceof FetchError && error.details.errors && Object.keys(error.details.errors).length > 0) setServerErrors(error.details.errors);
      else if (!isSessionError(error)) void notice.error(errorText(error));
    } finally {
      setBusy(false);
    }
  };

  const remove = () => {
    if (!current) return;
    modal.confirm({
      title: t('signatures.template_delete'),
      content: t('signatures.template_delete_confirm', { name: current.name }),
      okText: t('signatures.template_delete'),
      okButtonProps: { danger: true, id: 'signature-template-delete-ok' },
      cancelText: t('resource.unsaved_stay'),
      onOk: async () => {
        try {
          await api.request('signatures/templates/:id', { method: 'DELETE', params: { id: current.id } });
          const list = await queryClient.fetchQuery({ queryKey: templatesKey, queryFn: () => api.request<SignatureTemplate[]>('signatures/templates') });
          load(list.find((x) => x.is_default)?.id ?? 'new', list);
          void queryClient.invalidateQueries({ queryKey: ['signatures', 'detail'] });
          void notice.success(t('signatures.template_deleted'));
        } catch (error) {
          if (!isSessionError(error)) void notice.error(errorText(error));
        }
      },
    });
  };

  const onLogoFile = async (file: File | undefined) => {
    if (!file) return;
    if (!['image/png', 'image/jpeg'].includes(file.type)) return setServerErrors({ logo: 'signatures.logo_type' });
    if (file.size > LOGO_MAX_BYTES) return setServerErrors({ logo: 'signatures.logo_too_large' });
    try {
      setLogo(await readLogo(file));
      setServerErrors({});
    } catch {
      setServerErrors({ logo: 'signatures.logo_unreadable' });
    }
  };
  const shownLogo = logo === undefined ? (current?.logo_path ? api.url(current.logo_path) : null) : (logo?.url ?? null);

  return (
    <div data-testid="signature-templates">
      <div className="bo-sig-template-bar">
        {templates.length > 0 ? (
          <Select
            aria-label={t('signatures.template_pick')}
            value={selected === 'new' ? undefined : selected}
            placeholder={t('signatures.template_new')}
            options={templates.map((x) => ({ value: x.id, label: x.is_default ? `${x.name} · ${t('signatures.template.default_tag')}` : x.name }))}
            onChange={(v: number) => pick(v)}
            data-testid="signature-template-pick"
          />
        ) : null}
        <Button icon={<PlusOutlined />} onClick={() => pick('new')} disabled={selected === 'new'} data-testid="signature-template-new">
          {t('signatures.template_new')}
        </Button>
        {current ? (
          <Button danger icon={<DeleteOutlined />} onClick={remove} data-testid="signature-template-delete">
            {t('signatures.template_delete')}
          </Button>
        ) : null}
      </div>
      {templates.length === 0 ? <Empty description={t('signatures.template_none')} /> : null}
      <div className="bo-sig-layout">
        <Card size="small" title={current ? current.name : t('signatures.template_new')}>
          {current ? (
            <Typography.Paragraph type="secondary">
              {current.updated_by.name
                ? t('signatures.last_saved', { at: formatDateTime(current.updated_at, locale), name: current.updated_by.name })
                : t('signatures.saved_at', { at: formatDateTime(current.updated_at, locale) })}
            </Typography.Paragraph>
          ) : null}
          <Form layout="vertical" component="div">
            <Form.Item label={t('signatures.template.name')} htmlFor="sig-t-name" required {...item('name')}>
              <Input id="sig-t-name" value={values.name} maxLength={80} onChange={(e) => set({ name: e.target.value })} data-testid="signature-template-name" />
            </Form.Item>
            <Form.Item extra={t('signatures.template.is_default_help')} {...item('is_default')}>
              <Checkbox checked={values.is_default} disabled={current?.is_default === true} onChange={(e) => set({ is_default: e.target.checked })} data-testid="signature-template-default">
                {t('signatures.template.is_default')}
              </Checkbox>
            </Form.Item>
            <Form.Item label={t('signatures.template.company_name')} htmlFor="sig-t-company" required {...item('company_name')}>
              <Input id="sig-t-company" value={values.company_name} maxLength={120} onChange={(e) => set({ company_name: e.target.value })} data-testid="signature-template-company" />
            </Form.Item>
            <Form.Item label={t('signatures.template.address')} htmlFor="sig-t-address" {...item('address')}>
              <Input id="sig-t-address" value={values.address} maxLength={200} onChange={(e) => set({ address: e.target.value })} />
            </Form.Item>
            <Form.Item label={t('signatures.template.website')} htmlFor="sig-t-website" {...item('website')}>
              <Input id="sig-t-website" type="url" placeholder="https://" value={values.website} maxLength={500} onChange={(e) => set({ website: e.target.value })} data-testid="signature-template-website" />
            </Form.Item>
            <Form.Item label={t('signatures.template.logo')} extra={t('signatures.template.logo_help')} {...item('logo')}>
              <div className="bo-sig-logo">
                {shownLogo ? <img src={shownLogo} alt={values.company_name} /> : null}
                <Upload
                  accept="image/png,image/jpeg"
                  showUploadList={false}
                  maxCount={1}
                  beforeUpload={(file) => {
                    void onLogoFile(file);
                    return false;
                  }}
                >
                  <Button icon={<UploadOutlined />} data-testid="signature-template-logo">
                    {t('signatures.template.logo_upload')}
                  </Button>
                </Upload>
                {shownLogo ? (
                  <Button icon={<DeleteOutlined />} onClick={() => setLogo(null)}>
                    {t('signatures.template.logo_remove')}
                  </Button>
                ) : null}
              </div>
            </Form.Item>
            <Form.Item label={t('signatures.template.logo_width')} htmlFor="sig-t-logo-width" {...item('logo_width')}>
              <InputNumber id="sig-t-logo-width" min={LOGO_MIN_WIDTH} max={LOGO_MAX_WIDTH} precision={0} value={values.logo_width} onChange={(v) => set({ logo_width: v })} />
            </Form.Item>
            <Form.Item label={t('signatures.template.text_color')} extra={t('signatures.template.color_help')} {...colorItem('text_color')}>
              <ColorPicker showText disabledAlpha format="hex" value={values.text_color} onChange={(c) => set({ text_color: c.toHexString().toLowerCase() })} aria-label={t('signatures.template.text_color')} data-testid="signature-template-text-color" />
            </Form.Item>
            <Form.Item label={t('signatures.template.accent_color')} {...colorItem('accent_color')}>
              <ColorPicker showText disabledAlpha format="hex" value={values.accent_color} onChange={(c) => set({ accent_color: c.toHexString().toLowerCase() })} aria-label={t('signatures.template.accent_color')} data-testid="signature-template-accent-color" />
            </Form.Item>
            <Form.Item label={t('signatures.template.social')} {...item('social')}>
              {values.social.map((s, i) => {
                const help = errorAt(`social.${i}.url`);
                return (
                  <div key={i}>
                    <div className="bo-sig-phone">
                      <Select aria-label={t('signatures.template.social_network')} value={s.network} options={SOCIAL_NETWORKS.map((n) => ({ value: n, label: NETWORK_NAMES[n] }))} onChange={(v: SocialNetwork) => set({ social: values.social.map((x, j) => (j === i ? { ...x, network: v } : x)) })} />
                      <Input className="bo-sig-phone__number" aria-label={t('signatures.template.social_url')} status={help ? 'error' : undefined} placeholder="https://" value={s.url} onChange={(e) => set({ social: values.social.map((x, j) => (j === i ? { ...x, url: e.target.value } : x)) })} />
                      <Button aria-label={t('signatures.template.social_remove')} icon={<DeleteOutlined />} onClick={() => set({ social: values.social.filter((_, j) => j !== i) })} />
                    </div>
                    {help ? <div className="ant-form-item-explain-error" role="alert">{help}</div> : null}
                  </div>
                );
              })}
              {values.social.length < MAX_SOCIAL_LINKS ? (
                <Button icon={<PlusOutlined />} onClick={() => set({ social: [...values.social, { network: 'linkedin', url: '' }] })}>
                  {t('signatures.template.social_add')}
                </Button>
              ) : null}
            </Form.Item>
            <Form.Item label={t('signatures.template.legal_en')} htmlFor="sig-t-legal-en" {...item('legal_en')}>
              <Input.TextArea id="sig-t-legal-en" rows={3} maxLength={1200} value={values.legal_en} onChange={(e) => set({ legal_en: e.target.value })} />
            </Form.Item>
            <Form.Item label={t('signatures.template.legal_es')} htmlFor="sig-t-legal-es" {...item('legal_es')}>
              <Input.TextArea id="sig-t-legal-es" rows={3} maxLength={1200} value={values.legal_es} onChange={(e) => set({ legal_es: e.target.value })} />
            </Form.Item>
            {serverErrors._ ? <Alert type="error" showIcon title={t(serverErrors._)} /> : null}
            <Button type="primary" icon={<SaveOutlined />} loading={busy} onClick={() => void save()} data-testid="signature-template-save">
              {t('signatures.template_save')}
            </Button>
          </Form>
        </Card>
        <Card size="small" title={t('signatures.preview')}>
          <Typography.Paragraph type="secondary">{t('signatures.template_preview_help')}</Typography.Paragraph>
          <SignaturePreview html={rendered.html} darkHtml={rendered.dark} testId="signature-template-preview" />
        </Card>
      </div>
      <ConflictModal
        open={conflict !== null}
        by={conflict?.updated_by}
        at={conflict?.updated_at}
        onCancel={() => setConflict(null)}
        onReload={() => {
          const theirs = conflict!;
          setConflict(null);
          setValues(valuesOfTemplate(theirs));
          setVersion(theirs.version);
          setLogo(undefined);
          void queryClient.invalidateQueries({ queryKey: templatesKey });
        }}
        onOverwrite={() => {
          const v = conflict!.version;
          setConflict(null);
          setVersion(v);
          void save(v);
        }}
      />
    </div>
  );
}
