// A Vitest reporter that writes each test file's time, split the way Vitest measures it
// (environment, prepare, import and collect, setup files, the tests with their hooks), to the
// JSON file named by BO_FILE_TIMES. The JSON reporter's per-file times leave the import and
// environment out, which for a file that opens a database or a browser is most of its time.
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';

export default class FileTimesReporter {
  onTestRunEnd(testModules) {
    const out = process.env.BO_FILE_TIMES;
    if (!out) return;
    const files = testModules.map((m) => {
      const d = m.diagnostic();
      const tests = [...m.children.allTests()];
      return {
        file: m.moduleId,
        project: m.project.name,
        environment: d.environmentSetupDuration,
        prepare: d.prepareDuration,
        collect: d.collectDuration,
        setup: d.setupDuration,
        run: d.duration,
        total: d.environmentSetupDuration + d.prepareDuration + d.collectDuration + d.setupDuration + d.duration,
        tests: tests.length,
        failed: tests.filter((t) => t.result().state === 'failed').length,
      };
    });
    mkdirSync(path.dirname(out), { recursive: true });
    writeFileSync(out, JSON.stringify(files, null, 1));
  }
}
