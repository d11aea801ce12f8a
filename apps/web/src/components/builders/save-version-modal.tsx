/**
 * Save version: a name for the current configuration and subject. The name is checked here with
 * core's schema and again by the API (same keys); the API's refusals are shown in the dialog and
 * the name typed stays. A double click sends once (the button waits), and the API answers a
 * repeated request with the version already saved.
 */
import { builderVersionNameSchema, type BuilderKind, type BuilderVersionDto } from '@backoffice/core/builders/common';
import { Alert, Form, Input, Modal, Typography, type ButtonProps } from 'antd';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { errorText, isSessionError } from '../../lib/api.ts';
import { FetchError } from '../../lib/fetch-client.ts';
import { saveVersion } from './builders-api.ts';
import type { BuilderSubjectRef } from './types.ts';

export interface SaveVersionModalProps {
  kind: BuilderKind;
  open: boolean;
  subject: BuilderSubjectRef;
  config: unknown;
  suggestedName: string;
  onClose: () => void;
  onSaved: (version: BuilderVersionDto) => void;
  testId: string;
}

export function SaveVersionModal({ kind, open, subject, config, suggestedName, onClose, onSaved, testId }: SaveVersionModalProps) {
  const { t } = useTranslation();
  const [name, setName] = useState(suggestedName);
  const [nameError, setNameError] = useState<string | null>(null);
  const [failure, setFailure] = useState<string[] | null>(null);
  const [saving, setSaving] = useState(false);

  useEffect(() => {
    if (!open) return;
    setName(suggestedName);
    setNameError(null);
    setFailure(null);
  }, [open, suggestedName]);

  const submit = async () => {
    if (saving) return;
    const checked = builderVersionNameSchema.safeParse(name);
    if (!checked.success) {
      setNameError(name.trim() === '' ? t('builders.version_name_required') : t('builders.version_name_long'));
      return;
    }
    setNameError(null);
    setFailure(null);
    setSaving(true);
    try {
      const version = await saveVersion(kind, { subject_type: subject.type, subject_id: subject.type === 'none' ? null : subject.id, name: checked.data, config });
      onSaved(version);
    } catch (error) {
      if (isSessionError(error)) return;
      if (error instanceof FetchError && error.details.errors && Object.keys(error.details.errors).length > 0) {
        const errors = error.details.errors;
        if (errors.name) setNameError(t(errors.name));
        const rest = Object.entries(errors)
          .filter(([k]) => k !== 'name')
          .map(([k, key]) => `${k.replace(/^config\.?/, '') || t('builders.compare_root')}: ${t(key)}`);
        setFailure([errorText(error), ...rest]);
      } else setFailure([errorText(error)]);
    } finally {
      setSaving(false);
    }
  };

  return (
    <Modal
      open={open}
      title={t('builders.save_title')}
      okText={t('builders.save')}
      cancelText={t('common.cancel')}
      onOk={() => void submit()}
      onCancel={onClose}
      confirmLoading={saving}
      okButtonProps={{ 'data-testid': `${testId}-save-ok` } as ButtonProps}
      destroyOnHidden
      data-testid={`${testId}-save-modal`}
    >
      <Typography.Paragraph type="secondary">{t('builders.save_for', { subject: subject.type === 'none' ? t('builders.subject.none') : (subject.name ?? `#${subject.id}`) })}</Typography.Paragraph>
      {failure ? (
        <Alert
          type="error"
          showIcon
          className="bo-builder-save__error"
          title={failure[0]}
          description={failure.length > 1 ? <ul>{failure.slice(1).map((f) => <li key={f}>{f}</li>)}</ul> : undefined}
          data-testid={`${testId}-save-error`}
        />
      ) : null}
      <Form layout="vertical" onFinish={() => void submit()}>
        <Form.Item label={t('builders.version_name')} extra={t('builders.version_name_help')} validateStatus={nameError ? 'error' : undefined} help={nameError ?? undefined} required htmlFor={`${testId}-version-name`}>
          <Input id={`${testId}-version-name`} value={name} onChange={(e) => setName(e.target.value)} maxLength={200} autoFocus data-testid={`${testId}-version-name`} />
        </Form.Item>
      </Form>
    </Modal>
  );
}
