/** Housekeeping of the jobs themselves. */
import { lt, sql } from 'drizzle-orm';
import { jobRuns } from '../db/schema.ts';
import type { JobDefinition } from './types.ts';

/** How long job_runs rows are kept. */
export const JOB_RUNS_RETENTION_DAYS = 14;

export const pruneJobRunsJob: JobDefinition = {
  queue: 'jobs-prune-runs',
  cron: '17 3 * * *',
  pollingIntervalSeconds: 30,
  async handle(_job, jc) {
    const deleted = await jc.ctx.database.db
      .delete(jobRuns)
      .where(lt(jobRuns.startedAt, sql`now() - make_interval(days => ${JOB_RUNS_RETENTION_DAYS}::int)`))
      .returning({ id: jobRuns.id });
    return { deleted: deleted.length };
  },
};
