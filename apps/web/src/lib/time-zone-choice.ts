/**
 * The time zone figures are shown in on screens that let a person choose it (the dashboard, the
 * demand partners' overview): the browser's by default, a choice remembered on this computer.
 * Kept free of zod and the report catalogue: the app's entry reads it to start the dashboard's
 * request before the screen's code has arrived.
 */
import { isValidTimeZone } from '@backoffice/core/time-zones';
import { useCallback, useState } from 'react';

const TZ_STORAGE_KEY = 'backoffice-dashboard-tz';

/** The person's time zone (the browser's), UTC when the browser does not say or says nonsense. */
export function browserTimeZone(): string {
  try {
    const tz = new Intl.DateTimeFormat().resolvedOptions().timeZone;
    return tz && isValidTimeZone(tz) ? tz : 'UTC';
  } catch {
    return 'UTC';
  }
}

function storedZone(): string | null {
  try {
    const value = window.localStorage.getItem(TZ_STORAGE_KEY);
    return value && isValidTimeZone(value) ? value : null;
  } catch {
    return null;
  }
}

/** The zone chosen on this computer, else the browser's. */
export function chosenTimeZone(): string {
  return storedZone() ?? browserTimeZone();
}

/** The chosen zone, a setter that remembers it (choosing the browser's forgets), and the browser's. */
export function useChosenTimeZone(): [string, (tz: string) => void, string] {
  const browser = browserTimeZone();
  const [zone, setZone] = useState(chosenTimeZone);
  const choose = useCallback(
    (tz: string) => {
      setZone(tz);
      try {
        if (tz === browser) window.localStorage.removeItem(TZ_STORAGE_KEY);
        else window.localStorage.setItem(TZ_STORAGE_KEY, tz);
      } catch {
        // Storage refused (private mode): the choice lasts for this page only.
      }
    },
    [browser],
  );
  return [zone, choose, browser];
}
