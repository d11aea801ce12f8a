/**
 * Optional page-view analytics: a beacon per navigation to VITE_ANALYTICS_URL. Off when the
 * URL is not configured and always off on localhost (spec section 9).
 */
import { useEffect } from 'react';
import { useLocation } from 'react-router';

const LOCAL_HOSTS = new Set(['localhost', '127.0.0.1', '::1', '[::1]', '0.0.0.0']);

export function analyticsEnabled(url: string | undefined | null, hostname: string): boolean {
  if (!url) return false;
  const host = hostname.toLowerCase();
  return !(LOCAL_HOSTS.has(host) || host.endsWith('.localhost'));
}

export function useAnalytics(url: string | undefined = import.meta.env.VITE_ANALYTICS_URL): void {
  const { pathname } = useLocation();
  useEffect(() => {
    if (!analyticsEnabled(url, window.location.hostname) || !url) return;
    const payload = JSON.stringify({ path: pathname, at: new Date().toISOString(), referrer: document.referrer || null });
    if (typeof navigator.sendBeacon === 'function') navigator.sendBeacon(url, payload);
  }, [url, pathname]);
}
