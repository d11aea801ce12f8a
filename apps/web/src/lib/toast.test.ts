import type { MessageInstance } from 'antd/es/message/interface';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { bindToast, toast, TOAST_SECONDS } from './toast.ts';

afterEach(() => bindToast(null));

describe('toasts', () => {
  it('queues toasts raised before the message holder exists, then shows them auto-dismissing', () => {
    toast.error('early');
    const open = vi.fn();
    bindToast({ open } as unknown as MessageInstance);
    expect(open).toHaveBeenCalledWith({ type: 'error', content: 'early', key: 'error:early', duration: TOAST_SECONDS });
    toast.success('now');
    expect(open).toHaveBeenLastCalledWith(expect.objectContaining({ type: 'success', content: 'now' }));
    expect(TOAST_SECONDS).toBeGreaterThan(0);
  });
});
