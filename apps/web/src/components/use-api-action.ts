/**
 * One action at a time against the API, each ending with the API's translated message: `run`
 * marks the action busy, does the work (call the API, refresh what it changed) and shows the
 * message key the work returns as a success toast, or the error's message (none when the session
 * ended: the shell signs out). `confirm` asks first in a modal and runs the action on OK.
 */
import { App } from 'antd';
import { useState, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { errorText, isSessionError } from '../lib/api.ts';
import { useNotice } from './use-notice.ts';

/** The work of an action: the message key to show on success, or null for none. */
export type ActionWork = () => Promise<string | null>;

export interface ConfirmOptions {
  title: string;
  content: ReactNode;
  /** The OK button's text. */
  ok: string;
  danger?: boolean;
  /** The OK button's test id. */
  testId: string;
  /** The modal's class. */
  className?: string;
}

export interface ApiAction<K extends string> {
  /** The action running, or null. */
  busy: K | null;
  /**
   * Runs `work` as action `what` (nothing while another runs). `onError` may take an error over
   * (field errors in a form): it returns true when it did.
   */
  run: (what: K, work: ActionWork, onError?: (e: unknown) => boolean) => Promise<void>;
  /** Asks with a confirm modal, then runs `work` as action `what` on OK (the modal closes at once). */
  confirm: (options: ConfirmOptions, what: K, work: ActionWork) => void;
}

export function useApiAction<K extends string>(): ApiAction<K> {
  const { t } = useTranslation();
  const { modal } = App.useApp();
  const notice = useNotice();
  const [busy, setBusy] = useState<K | null>(null);
  const run: ApiAction<K>['run'] = async (what, work, onError) => {
    if (busy) return;
    setBusy(what);
    try {
      const message = await work();
      if (message) void notice.success(t(message));
    } catch (e) {
      if (!onError?.(e) && !isSessionError(e)) void notice.error(errorText(e));
    } finally {
      setBusy(null);
    }
  };
  const confirm: ApiAction<K>['confirm'] = (options, what, work) =>
    void modal.confirm({
      title: options.title,
      content: options.content,
      okText: options.ok,
      cancelText: t('common.cancel'),
      className: options.className,
      okButtonProps: {
        danger: options.danger,
        ...({ 'data-testid': options.testId } as Record<string, string>),
      },
      onOk: () => void run(what, work),
    });
  return { busy, run, confirm };
}
