#!/usr/bin/env node
// `npm run test:slowest [-- N]`: the N (default 10) slowest test files of the last `npm test` run
// (or of the steps run since), from the reports in .tmp/test-results.
import { printSlowest } from './lib/slowest.mjs';

const count = Number(process.argv[2] ?? '10');
if (!printSlowest(Number.isInteger(count) && count > 0 ? count : 10)) {
  console.log('No test reports yet: run `npm test` (or a step of it, e.g. `npm test -- --only=e2e`) first.');
}
