import { billingActionSchema } from '@backoffice/core/billing-api';
import { describe, expect, it } from 'vitest';
import { newIdempotencyKey } from './idempotency.ts';

describe('newIdempotencyKey', () => {
  it('makes a fresh key per click, 32 hex digits after the prefix, that the API takes', () => {
    const a = newIdempotencyKey();
    expect(a).toMatch(/^[0-9a-f]{32}$/);
    expect(newIdempotencyKey()).not.toBe(a);
    expect(newIdempotencyKey('po-')).toMatch(/^po-[0-9a-f]{32}$/);
    expect(billingActionSchema.shape.idempotency_key.safeParse(newIdempotencyKey('po-')).success).toBe(true);
  });

  it('works where crypto.randomUUID is missing (an intranet address over plain HTTP)', () => {
    const uuid = crypto.randomUUID;
    Object.defineProperty(crypto, 'randomUUID', { value: undefined, configurable: true });
    try {
      expect(newIdempotencyKey('il-')).toMatch(/^il-[0-9a-f]{32}$/);
    } finally {
      Object.defineProperty(crypto, 'randomUUID', { value: uuid, configurable: true });
    }
  });
});
