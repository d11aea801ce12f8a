/**
 * Adding or changing a floor rule (a modal): the nine keys, the CPM (exact text), its currency and
 * type, and the version's comment. The API checks everything (core checkFloorRule plus the
 * publisher's and partner's existence and the uniqueness of the keys); its field errors show next
 * to the fields and nothing typed is lost.
 */
import { FLOOR_KEYS } from '@backoffice/core/floors';
import { CURRENCIES } from '@backoffice/core/resources/companies';
import { Alert, Form, Input, Modal, Radio, Select, Space, Typography } from 'antd';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useNotice } from '../../components/use-notice.ts';
import { api, errorText, isSessionError } from '../../lib/api.ts';
import { FetchError } from '../../lib/fetch-client.ts';
import type { FloorRuleRow, VersionWritten } from './floors-api.ts';
import { KeyInputs, keysIn, keysOut, type KeyValues } from './key-inputs.tsx';

interface Values {
  keys: KeyValues;
  cpm: string;
  currency: string;
  type: 'hard' | 'soft';
  comment: string;
}

export function RuleFormModal({
  rule,
  open,
  onClose,
  onSaved,
}: {
  rule: FloorRuleRow | null;
  open: boolean;
  onClose: () => void;
  onSaved: (w: VersionWritten) => void;
}) {
  const { t } = useTranslation();
  const notice = useNotice();
  const [form] = Form.useForm();
  const [busy, setBusy] = useState(false);
  const [formError, setFormError] = useState<string | null>(null);

  useEffect(() => {
    if (!open) return;
    setFormError(null);
    form.resetFields();
    form.setFieldsValue(
      rule
        ? { keys: keysIn(rule.keys), cpm: rule.cpm, currency: rule.currency, type: rule.type, comment: '' }
        : { keys: {}, cpm: '', currency: 'USD', type: 'hard', comment: '' },
    );
  }, [open, rule, form]);

  const submit = async () => {
    const v = form.getFieldsValue(true) as Values;
    setBusy(true);
    setFormError(null);
    // Clear the server's previous errors; they come back if still true.
    form.setFields([
      ...FLOOR_KEYS.map((k) => ({ name: ['keys', k], errors: [] })),
      { name: 'cpm', errors: [] },
      { name: 'currency', errors: [] },
      { name: 'type', errors: [] },
    ]);
    try {
      const payload = {
        keys: keysOut(v.keys ?? {}),
        cpm: String(v.cpm ?? '').trim(),
        currency: v.currency,
        type: v.type,
        comment: v.comment ?? '',
      };
      const written = rule
        ? await api.request<VersionWritten>(`floors/rules/${rule.id}`, { method: 'PUT', body: payload })
        : await api.request<VersionWritten>('floors/rules', { method: 'POST', body: payload });
      void notice.success(t('floors.saved', { version: written.version }));
      onSaved(written);
    } catch (error) {
      if (isSessionError(error)) return;
      const fieldErrors = error instanceof FetchError ? error.details.errors : null;
      if (fieldErrors && Object.keys(fieldErrors).length > 0) {
        const onFields = Object.entries(fieldErrors).filter(([f]) => f !== 'keys');
        form.setFields(
          onFields.map(([f, key]) => ({
            name: f.startsWith('keys.') ? ['keys', f.slice(5)] : f,
            errors: [t(key)],
          })),
        );
        if (fieldErrors.keys || onFields.length === 0) setFormError(errorText(error));
      } else setFormError(errorText(error));
    } finally {
      setBusy(false);
    }
  };

  return (
    <Modal
      open={open}
      title={rule ? t('floors.rule_form.edit') : t('floors.rule_form.new')}
      onCancel={onClose}
      onOk={() => void submit()}
      okText={t('common.save')}
      cancelText={t('common.cancel')}
      confirmLoading={busy}
      width={760}
      destroyOnHidden
      okButtonProps={{ 'data-testid': 'floor-rule-save' } as Record<`data-${string}`, string>}
    >
      <Form form={form} layout="vertical" data-testid="floor-rule-form" onFinish={() => void submit()}>
        <Typography.Paragraph type="secondary">{t('floors.rule_form.keys_help')}</Typography.Paragraph>
        <KeyInputs prefix="keys" />
        <div className="bo-floors-price">
          <Form.Item name="cpm" label={t('floors.cpm')} data-testid="floor-cpm">
            <Input inputMode="decimal" placeholder={t('floors.placeholder.cpm')} maxLength={20} />
          </Form.Item>
          <Form.Item name="currency" label={t('floors.currency')}>
            <Select
              options={CURRENCIES.map((c) => ({ value: c, label: c }))}
              aria-label={t('floors.currency')}
            />
          </Form.Item>
          <Form.Item name="type" label={t('floors.type')}>
            <Radio.Group>
              <Space direction="vertical" size={2}>
                <Radio value="hard">
                  {t('floors.type.hard')}{' '}
                  <Typography.Text type="secondary">— {t('floors.type.hard_help')}</Typography.Text>
                </Radio>
                <Radio value="soft">
                  {t('floors.type.soft')}{' '}
                  <Typography.Text type="secondary">— {t('floors.type.soft_help')}</Typography.Text>
                </Radio>
              </Space>
            </Radio.Group>
          </Form.Item>
        </div>
        <Form.Item name="comment" label={t('floors.comment')}>
          <Input.TextArea
            autoSize={{ minRows: 1, maxRows: 4 }}
            maxLength={500}
            placeholder={t('floors.comment_placeholder')}
          />
        </Form.Item>
        {formError ? <Alert type="error" showIcon title={formError} data-testid="floor-rule-error" /> : null}
        <button type="submit" hidden />
      </Form>
    </Modal>
  );
}
