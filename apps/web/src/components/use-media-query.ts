import { useSyncExternalStore } from 'react';

/** Desktop from 1280 px (spec section 9). */
export const DESKTOP_QUERY = '(min-width: 1280px)';
/** The person asked their system for less motion (WCAG 2.3.3): no animations then. */
export const REDUCED_MOTION_QUERY = '(prefers-reduced-motion: reduce)';

/** Whether a CSS media query matches, kept up to date on resize. False where matchMedia is missing. */
export function useMediaQuery(query: string): boolean {
  return useSyncExternalStore(
    (notify) => {
      if (typeof window === 'undefined' || !window.matchMedia) return () => undefined;
      const list = window.matchMedia(query);
      list.addEventListener('change', notify);
      return () => list.removeEventListener('change', notify);
    },
    () => (typeof window !== 'undefined' && window.matchMedia ? window.matchMedia(query).matches : false),
    () => false,
  );
}
