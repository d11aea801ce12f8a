/** Housekeeping: the jobs' own runs, ended and expired sessions, old rate-limit counters. */
import { lt, sql } from 'drizzle-orm';
import { jobRuns } from '../db/schema.ts';
import { pruneRateLimits } from '../lib/rate-limit.ts';
import { pruneSessions } from '../plugins/sessions.ts';
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
    const sessions = await pruneSessions(jc.ctx.database.db);
    const counters = await pruneRateLimits(jc.ctx.database.db);
    return { deleted: deleted.length, sessions, counters };
  },
};
