/**
 * The dialog of an action that asks for a few values first (send, record a payment, block): OK
 * runs it, and while it runs OK spins and cannot be pressed again. Pair with `useApiAction`.
 */
import { Modal } from 'antd';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';

export interface ActionModalProps {
  title: string;
  /** The OK button's text. */
  ok: string;
  onOk: () => void;
  onCancel: () => void;
  busy: boolean;
  danger?: boolean;
  /** The OK button's test id. */
  testId: string;
  className?: string;
  /** Unmount the content once closed (a form that starts afresh). */
  destroyOnHidden?: boolean;
  children: ReactNode;
}

export function ActionModal({
  title,
  ok,
  onOk,
  onCancel,
  busy,
  danger,
  testId,
  className,
  destroyOnHidden,
  children,
}: ActionModalProps) {
  const { t } = useTranslation();
  return (
    <Modal
      open
      title={title}
      className={className}
      okText={ok}
      cancelText={t('common.cancel')}
      onOk={onOk}
      onCancel={onCancel}
      confirmLoading={busy}
      okButtonProps={{ danger, disabled: busy, ...({ 'data-testid': testId } as Record<string, string>) }}
      destroyOnHidden={destroyOnHidden}
    >
      {children}
    </Modal>
  );
}
