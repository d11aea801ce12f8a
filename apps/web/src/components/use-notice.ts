import { App, message as staticMessage } from 'antd';
import type { MessageInstance } from 'antd/es/message/interface';

/**
 * The toast API: the themed one of the nearest antd <App> (the shell places toasts top-centre),
 * or antd's static one when a component is rendered outside an <App>.
 */
export function useNotice(): MessageInstance {
  const { message } = App.useApp();
  return typeof message?.error === 'function' ? message : staticMessage;
}
