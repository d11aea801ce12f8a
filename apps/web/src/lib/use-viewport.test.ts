import { act, renderHook } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { RESIZE_DEBOUNCE_MS, useViewport, viewportClass } from './use-viewport.ts';

function resizeTo(width: number) {
  Object.defineProperty(window, 'innerWidth', { configurable: true, writable: true, value: width });
  window.dispatchEvent(new Event('resize'));
}

describe('viewport classes', () => {
  it('splits at 768 and 1280 px', () => {
    expect(viewportClass(0)).toBe('mobile');
    expect(viewportClass(375)).toBe('mobile');
    expect(viewportClass(767)).toBe('mobile');
    expect(viewportClass(768)).toBe('tablet');
    expect(viewportClass(1279)).toBe('tablet');
    expect(viewportClass(1280)).toBe('desktop');
    expect(viewportClass(2560)).toBe('desktop');
  });
});

describe('useViewport', () => {
  beforeEach(() => {
    vi.useFakeTimers();
    resizeTo(1440);
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  it('debounces resizes by 200 ms and tags <html data-viewport>', () => {
    expect(RESIZE_DEBOUNCE_MS).toBe(200);
    const { result, unmount } = renderHook(() => useViewport());
    expect(result.current.viewport).toBe('desktop');
    expect(result.current.isDesktop).toBe(true);

    act(() => {
      resizeTo(1000);
      vi.advanceTimersByTime(100);
      resizeTo(375); // restarts the debounce
      vi.advanceTimersByTime(199);
    });
    expect(result.current.viewport).toBe('desktop');

    act(() => {
      vi.advanceTimersByTime(1);
    });
    expect(result.current.viewport).toBe('mobile');
    expect(result.current.width).toBe(375);
    expect(result.current.isMobile).toBe(true);
    expect(document.documentElement.dataset.viewport).toBe('mobile');

    act(() => {
      resizeTo(800);
      vi.advanceTimersByTime(200);
    });
    expect(result.current.viewport).toBe('tablet');
    unmount();
  });

  it('shares one value between components', () => {
    const a = renderHook(() => useViewport());
    const b = renderHook(() => useViewport());
    act(() => {
      resizeTo(1300);
      vi.advanceTimersByTime(200);
    });
    expect(a.result.current).toBe(b.result.current);
    expect(a.result.current.viewport).toBe('desktop');
    a.unmount();
    b.unmount();
  });
});
