/**
 * Route error boundaries: the crash screen (spec section 2) for render errors. The screen's
 * code (antd) loads only when an error happens, so it costs the sign-in page nothing.
 */
import { lazy, Suspense } from 'react';
import { useRouteError } from 'react-router';
import { retry } from '../lib/retry.ts';

const CrashScreen = lazy(() => retry(() => import('../shell/crash-screen.tsx')));

/** Whole-page crash (the shell itself failed). */
export function RootErrorBoundary() {
  const error = useRouteError();
  return (
    <Suspense fallback={null}>
      <CrashScreen error={error} fullPage />
    </Suspense>
  );
}
