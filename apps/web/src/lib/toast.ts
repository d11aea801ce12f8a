/**
 * Toasts (spec section 9: top-centre, auto-dismissing) reachable from outside React: the
 * fetch layer and the session store raise them. The antd `App` context hands its message API
 * to {@link bindToast}; toasts raised before that are queued.
 */
import type { MessageInstance } from 'antd/es/message/interface';

export const TOAST_SECONDS = 4;

type Kind = 'success' | 'error' | 'info' | 'warning';

let api: MessageInstance | null = null;
const queue: Array<[Kind, string]> = [];

function show(kind: Kind, text: string): void {
  if (!api) {
    queue.push([kind, text]);
    return;
  }
  // The text is the key: the same message raised twice at once shows once.
  void api.open({ type: kind, content: text, key: `${kind}:${text}`, duration: TOAST_SECONDS });
}

export function bindToast(instance: MessageInstance | null): void {
  api = instance;
  if (!api) return;
  for (const [kind, text] of queue.splice(0)) show(kind, text);
}

export const toast = {
  success: (text: string) => show('success', text),
  error: (text: string) => show('error', text),
  info: (text: string) => show('info', text),
  warning: (text: string) => show('warning', text),
};
