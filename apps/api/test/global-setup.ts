import fs from 'node:fs';
import type { TestProject } from 'vitest/node';
import { TEMPLATE_DB, createTemplate, dropDatabase, testDatabaseUrl } from './db-template.ts';

declare module 'vitest' {
  export interface ProvidedContext {
    dbTemplate: { kind: 'pglite'; dir: string } | { kind: 'postgres'; url: string };
  }
}

export default async function setup(project: TestProject) {
  const template = await createTemplate();
  project.provide('dbTemplate', template);
  return async () => {
    if (template.kind === 'pglite') fs.rmSync(template.dir, { recursive: true, force: true });
    else await dropDatabase(testDatabaseUrl()!, TEMPLATE_DB);
  };
}
