/**
 * Register a network (`/partners/demandpartners_ssp_register`): the SSP side's guided form. Four
 * steps (identity, connection, traffic and pricing, commercial) and a review; one antd Form holds
 * every step, so what is filled in stays when going back. Each step is checked with its part of
 * the shared schema before the next; the server refuses a network already registered (the same
 * name, the same endpoint URL) and the form goes back to the step of the field it names. The new
 * partner opens on its detail page.
 */
import { demandPartnerFieldsSchema, demandPartners, REGISTER_STEPS } from '@backoffice/core/resources/demand-partners';
import { issuesToErrors } from '@backoffice/core/validation-errors';
import { Button, Descriptions, Form, Modal, Space, Steps, Typography } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { useLocale } from '../../components/use-locale.ts';
import { useNotice } from '../../components/use-notice.ts';
import { errorText } from '../../lib/api.ts';
import { FetchError } from '../../lib/fetch-client.ts';
import { usePermission } from '../../lib/permission.tsx';
import { useResourceMutations } from '../../resources/resource-api.ts';
import { ReferenceLabel } from '../../resources/reference-select.tsx';
import { valueText } from '../../resources/resource-cells.tsx';
import { cleaned, FieldGrid, initialValues, translated, useUnsavedGuard } from '../../resources/resource-form.tsx';
import '../../resources/resources.css';

type Values = Record<string, unknown>;
const FIXED = { side: 'ssp' };
const REVIEW = REGISTER_STEPS.length;

export default function RegisterNetworkPage() {
  const { t } = useTranslation();
  const locale = useLocale();
  const navigate = useNavigate();
  const notice = useNotice();
  const canWrite = usePermission(demandPartners.acl, 'write');
  const { create } = useResourceMutations(demandPartners);
  const [form] = Form.useForm<Values>();
  const [step, setStep] = useState(0);
  const [dirty, setDirty] = useState(false);
  const [saving, setSaving] = useState(false);
  useUnsavedGuard(dirty && !saving);

  const values = (): Values => cleaned(demandPartners, { ...initialValues(demandPartners, null, FIXED), ...form.getFieldsValue(true) });

  /** Puts errors next to their fields and goes to the first step that has one; true when any. */
  const showErrors = (errors: Record<string, string>): boolean => {
    const names = Object.keys(errors).map((n) => n.split('.')[0]!);
    if (names.length === 0) return false;
    form.setFields(Object.entries(errors).map(([name, key]) => ({ name: name.split('.')[0]!, errors: [translated(key)] })));
    const at = REGISTER_STEPS.findIndex((s) => s.fields.some((f) => names.includes(f)));
    if (at >= 0) setStep(at);
    return true;
  };

  const checkStep = (index: number): boolean => {
    const fields = REGISTER_STEPS[index]!.fields;
    const pick = Object.fromEntries(fields.map((f) => [f, true])) as Record<(typeof fields)[number], true>;
    const all = values();
    const result = demandPartnerFieldsSchema.pick(pick).safeParse(Object.fromEntries(fields.map((f) => [f, all[f]])), { reportInput: true });
    form.setFields(fields.map((name) => ({ name, errors: [] })));
    return result.success || !showErrors(issuesToErrors(result.error.issues));
  };

  const next = () => {
    if (checkStep(step)) setStep(step + 1);
  };

  const register = async () => {
    for (let i = 0; i < REGISTER_STEPS.length; i++) if (!checkStep(i)) return;
    setSaving(true);
    try {
      const created = await create.mutateAsync(values());
      setDirty(false);
      void notice.success(t('demand_partner.register.done'));
      void navigate(`/${locale}/partners/demandpartners_ssp/${created.id}`, { replace: true });
    } catch (error) {
      if (!(error instanceof FetchError && error.details.errors && showErrors(error.details.errors))) Modal.error({ title: errorText(error) });
    } finally {
      setSaving(false);
    }
  };

  const review = REGISTER_STEPS.flatMap((s) => s.fields).map((f) => {
    const meta = demandPartners.fields[f]!;
    const v = form.getFieldValue(f) as unknown;
    return { key: f, label: t(meta.label), children: meta.type === 'ref' && meta.ref ? <ReferenceLabel resource={meta.ref} id={v as number | null} /> : valueText(meta, v, locale) };
  });

  return (
    <div className="bo-page bo-partner-register" data-testid="partner-register">
      <h1 className="bo-page__title">{t('demand_partner.register.title')}</h1>
      <Typography.Paragraph type="secondary">{t('demand_partner.register.intro')}</Typography.Paragraph>
      <Steps
        current={step}
        size="small"
        responsive
        className="bo-partner-register__steps"
        items={[...REGISTER_STEPS.map((s) => ({ title: t(`demand_partner.register.step.${s.key}`) })), { title: t('demand_partner.register.step.review') }]}
      />
      <Form
        form={form}
        layout="vertical"
        disabled={!canWrite || saving}
        initialValues={initialValues(demandPartners, null, FIXED)}
        onValuesChange={() => setDirty(true)}
        onFinish={() => (step === REVIEW ? void register() : next())}
        className="bo-res-form"
        data-testid="resource-form-demand_partners"
      >
        {REGISTER_STEPS.map((s, i) => (
          <div key={s.key} hidden={i !== step} data-testid={`register-step-${s.key}`}>
            <FieldGrid def={demandPartners} fields={s.fields} locale={locale} />
          </div>
        ))}
        {step === REVIEW ? <Descriptions bordered size="small" column={{ xs: 1, sm: 1, md: 2 }} items={review} data-testid="register-review" /> : null}
        <Space wrap className="bo-res-form__actions">
          {step > 0 ? (
            <Button onClick={() => setStep(step - 1)} data-testid="register-back">
              {t('demand_partner.register.back')}
            </Button>
          ) : null}
          {step < REVIEW ? (
            <Button type="primary" htmlType="submit" data-testid="register-next">
              {t('demand_partner.register.next')}
            </Button>
          ) : (
            <Button type="primary" htmlType="submit" loading={saving} disabled={!canWrite} data-testid="register-submit">
              {t('demand_partner.register.submit')}
            </Button>
          )}
        </Space>
      </Form>
    </div>
  );
}
