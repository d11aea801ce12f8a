import { describe, expect, it } from 'vitest';
import { themeConfig } from './theme.ts';

describe('themeConfig', () => {
  it('animates by default, and not when the system asks for reduced motion', () => {
    expect(themeConfig('light').token?.motion).toBe(true);
    expect(themeConfig('dark', { reducedMotion: false }).token?.motion).toBe(true);
    expect(themeConfig('light', { reducedMotion: true }).token?.motion).toBe(false);
    expect(themeConfig('dark', { reducedMotion: true }).token?.motion).toBe(false);
  });
});
