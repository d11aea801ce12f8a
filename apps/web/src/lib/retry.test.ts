import { describe, expect, it, vi } from 'vitest';
import { lazyScreen, retry, RETRY_ATTEMPTS, RETRY_DELAY_MS } from './retry.ts';

describe('retry (lazy screen loads)', () => {
  it('uses the spec constants: 3 attempts, 1000 ms apart', () => {
    expect(RETRY_ATTEMPTS).toBe(3);
    expect(RETRY_DELAY_MS).toBe(1000);
  });

  it('returns the first success without waiting', async () => {
    const sleep = vi.fn(() => Promise.resolve());
    const load = vi.fn(() => Promise.resolve('ok'));
    await expect(retry(load, { sleep })).resolves.toBe('ok');
    expect(load).toHaveBeenCalledTimes(1);
    expect(sleep).not.toHaveBeenCalled();
  });

  it('retries failures and resolves on the third attempt', async () => {
    const sleep = vi.fn(() => Promise.resolve());
    const load = vi
      .fn<() => Promise<string>>()
      .mockRejectedValueOnce(new Error('chunk 1'))
      .mockRejectedValueOnce(new Error('chunk 2'))
      .mockResolvedValue('screen');
    await expect(retry(load, { sleep })).resolves.toBe('screen');
    expect(load).toHaveBeenCalledTimes(3);
    expect(sleep).toHaveBeenCalledTimes(2);
    expect(sleep).toHaveBeenCalledWith(1000);
  });

  it('gives up after 3 attempts with the last error', async () => {
    const sleep = vi.fn(() => Promise.resolve());
    let n = 0;
    const load = vi.fn(() => Promise.reject(new Error(`fail ${++n}`)));
    await expect(retry(load, { sleep })).rejects.toThrow('fail 3');
    expect(load).toHaveBeenCalledTimes(3);
    expect(sleep).toHaveBeenCalledTimes(2);
  });

  it('waits 1 s of real time between attempts', async () => {
    vi.useFakeTimers();
    try {
      const load = vi.fn<() => Promise<number>>().mockRejectedValueOnce(new Error('x')).mockResolvedValue(7);
      const result = retry(load);
      await vi.advanceTimersByTimeAsync(0);
      expect(load).toHaveBeenCalledTimes(1);
      await vi.advanceTimersByTimeAsync(999);
      expect(load).toHaveBeenCalledTimes(1);
      await vi.advanceTimersByTimeAsync(1);
      await expect(result).resolves.toBe(7);
      expect(load).toHaveBeenCalledTimes(2);
    } finally {
      vi.useRealTimers();
    }
  });

  it('builds a React Router lazy route from a default export', async () => {
    const Screen = () => null;
    const lazy = lazyScreen(() => Promise.resolve({ default: Screen }));
    await expect(lazy()).resolves.toEqual({ Component: Screen });
  });
});
