import { describe, expect, it } from 'vitest';
import { configChangedPaths } from './config-diff.ts';

describe('configChangedPaths', () => {
  it('is empty for equal configurations, whatever the key order', () => {
    expect(configChangedPaths({ a: 1, b: { c: [1, 2] } }, { b: { c: [1, 2] }, a: 1 })).toEqual([]);
  });

  it('names changed leaves, added and removed keys, and array items by position', () => {
    const before = { version: '4.2', ad: { title: 'Spring', media: [{ url: 'https://a.example/1.mp4', w: 640 }, { url: 'https://a.example/2.mp4' }] }, skip: 5 };
    const after = { version: '4.2', ad: { title: 'Summer', media: [{ url: 'https://a.example/1.mp4', w: 1280 }] }, pricing: { value: '2.50' } };
    expect(configChangedPaths(before, after)).toEqual(['ad.media.0.w', 'ad.media.1', 'ad.title', 'pricing', 'skip']);
  });

  it('sorts numeric segments as numbers and treats a type change as a change at that path', () => {
    const a = { items: Array.from({ length: 11 }, (_, i) => i) };
    const b = { items: Array.from({ length: 11 }, (_, i) => (i === 2 || i === 10 ? -1 : i)) };
    expect(configChangedPaths(a, b)).toEqual(['items.2', 'items.10']);
    expect(configChangedPaths({ x: [1] }, { x: { 0: 1 } })).toEqual(['x']);
    expect(configChangedPaths(1, 2)).toEqual(['']);
  });
});
