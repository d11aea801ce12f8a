/**
 * Test-only screen that throws while rendering, to show the crash screen. It exists only in
 * builds made with VITE_TEST_ROUTES=1 (the e2e build); production builds leave it out.
 */
export default function CrashRoute(): never {
  throw new Error('Test crash: this screen throws on purpose (VITE_TEST_ROUTES)');
}
