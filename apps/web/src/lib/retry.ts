/**
 * Retry for lazy screen loads (spec sections 7 and 9): up to 3 attempts, 1000 ms apart.
 * A chunk can fail to load on a flaky network or right after a deploy; the second or third
 * attempt usually succeeds.
 */
import type { ComponentType } from 'react';

export const RETRY_ATTEMPTS = 3;
export const RETRY_DELAY_MS = 1000;

export interface RetryOptions {
  /** Total attempts, the first one included (default 3). */
  attempts?: number;
  /** Pause between attempts in ms (default 1000). */
  delayMs?: number;
  /** Injected for tests; defaults to setTimeout. */
  sleep?: (ms: number) => Promise<void>;
}

const defaultSleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/** Calls `load` until it resolves, at most `attempts` times, waiting `delayMs` between tries. */
export async function retry<T>(load: () => Promise<T>, options: RetryOptions = {}): Promise<T> {
  const attempts = Math.max(1, options.attempts ?? RETRY_ATTEMPTS);
  const delayMs = options.delayMs ?? RETRY_DELAY_MS;
  const sleep = options.sleep ?? defaultSleep;
  let lastError: unknown;
  for (let attempt = 1; attempt <= attempts; attempt += 1) {
    try {
      return await load();
    } catch (error) {
      lastError = error;
      if (attempt < attempts) await sleep(delayMs);
    }
  }
  throw lastError;
}

/** A React Router `lazy` function for a module whose default export is the screen. */
export function lazyScreen(load: () => Promise<{ default: ComponentType }>, options?: RetryOptions) {
  return async () => {
    const mod = await retry(load, options);
    return { Component: mod.default };
  };
}
