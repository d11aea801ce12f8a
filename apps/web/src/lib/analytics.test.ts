import { describe, expect, it } from 'vitest';
import { analyticsEnabled } from './analytics.ts';

describe('analytics', () => {
  it('is off without a URL', () => {
    expect(analyticsEnabled(undefined, 'backoffice.example')).toBe(false);
    expect(analyticsEnabled('', 'backoffice.example')).toBe(false);
  });
  it('is off on localhost', () => {
    for (const host of ['localhost', '127.0.0.1', '::1', '[::1]', 'app.localhost', 'LOCALHOST']) {
      expect(analyticsEnabled('https://stats.example/hit', host)).toBe(false);
    }
  });
  it('is on for a configured URL on a real host', () => {
    expect(analyticsEnabled('https://stats.example/hit', 'backoffice.example')).toBe(true);
  });
});
