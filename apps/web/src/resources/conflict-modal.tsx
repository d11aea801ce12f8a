/**
 * The dialog of a save that met someone else's change (HTTP 409, optimistic concurrency): who
 * changed it and when, then "reload theirs" or "overwrite with mine". The resource layer's forms
 * and the screens with their own shape (signatures, signature templates) show the same one.
 */
import { Button, Modal, Space } from 'antd';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { useLocale } from '../components/use-locale.ts';
import { formatDateTime } from './resource-cells.tsx';

export interface ConflictModalProps {
  open: boolean;
  /** Who saved the other change, and when (the current record's updated_by / updated_at). */
  by: { name?: string | null } | null | undefined;
  at: string | null | undefined;
  onCancel: () => void;
  onReload: () => void;
  onOverwrite: () => void;
  /** Prefix of the test ids: `<testId>-conflict`, `-conflict-reload`, `-conflict-overwrite`. */
  testId?: string;
  width?: number;
  /** Below the sentence (the resource form's field-by-field comparison). */
  children?: ReactNode;
}

export function ConflictModal({ open, by, at, onCancel, onReload, onOverwrite, testId, width, children }: ConflictModalProps) {
  const { t } = useTranslation();
  const locale = useLocale();
  const id = (suffix: string) => (testId ? `${testId}-conflict${suffix}` : undefined);
  return (
    <Modal
      open={open}
      title={t('resource.conflict_title')}
      onCancel={onCancel}
      width={width}
      footer={
        <Space wrap>
          <Button onClick={onReload} data-testid={id('-reload')}>
            {t('resource.conflict_reload')}
          </Button>
          <Button type="primary" danger onClick={onOverwrite} data-testid={id('-overwrite')}>
            {t('resource.conflict_overwrite')}
          </Button>
        </Space>
      }
    >
      <div data-testid={id('')}>
        <p>{t('resource.conflict_body', { name: by?.name ?? t('resource.nobody'), at: formatDateTime(at ?? undefined, locale) })}</p>
        {children}
      </div>
    </Modal>
  );
}
