/**
 * Viewport classes (spec section 9): mobile below 768 px, tablet 768-1279, desktop 1280 and
 * above; window resizes are debounced by 200 ms. The class is also written to
 * `<html data-viewport>` so CSS can use it.
 */
import { useSyncExternalStore } from 'react';

export type ViewportClass = 'mobile' | 'tablet' | 'desktop';

export const TABLET_MIN_WIDTH = 768;
export const DESKTOP_MIN_WIDTH = 1280;
export const RESIZE_DEBOUNCE_MS = 200;

export function viewportClass(width: number): ViewportClass {
  if (width < TABLET_MIN_WIDTH) return 'mobile';
  if (width < DESKTOP_MIN_WIDTH) return 'tablet';
  return 'desktop';
}

export interface Viewport {
  width: number;
  viewport: ViewportClass;
  isMobile: boolean;
  isTablet: boolean;
  isDesktop: boolean;
}

function measure(): Viewport {
  const width = typeof window === 'undefined' ? DESKTOP_MIN_WIDTH : window.innerWidth;
  const viewport = viewportClass(width);
  return { width, viewport, isMobile: viewport === 'mobile', isTablet: viewport === 'tablet', isDesktop: viewport === 'desktop' };
}

let current: Viewport | null = null;
let timer: ReturnType<typeof setTimeout> | null = null;
const listeners = new Set<() => void>();

function publish(): void {
  const next = measure();
  if (current && current.width === next.width) return;
  current = next;
  if (typeof document !== 'undefined') document.documentElement.dataset.viewport = next.viewport;
  for (const l of listeners) l();
}

function onResize(): void {
  if (timer !== null) clearTimeout(timer);
  timer = setTimeout(() => {
    timer = null;
    publish();
  }, RESIZE_DEBOUNCE_MS);
}

function subscribe(listener: () => void): () => void {
  if (listeners.size === 0 && typeof window !== 'undefined') {
    window.addEventListener('resize', onResize);
    // Catch up with a resize that happened while nobody listened.
    publish();
  }
  listeners.add(listener);
  return () => {
    listeners.delete(listener);
    if (listeners.size === 0 && typeof window !== 'undefined') {
      window.removeEventListener('resize', onResize);
      if (timer !== null) clearTimeout(timer);
      timer = null;
    }
  };
}

function snapshot(): Viewport {
  if (!current) {
    current = measure();
    if (typeof document !== 'undefined') document.documentElement.dataset.viewport = current.viewport;
  }
  return current;
}

/** The current viewport, updated 200 ms after the last resize. */
export function useViewport(): Viewport {
  return useSyncExternalStore(subscribe, snapshot, snapshot);
}
