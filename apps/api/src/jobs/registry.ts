/** Every background job and local task. Features add theirs here (see types.ts). */
import { dataviewerSchedulesJob } from '../modules/dataviewer-schedules/jobs.ts';
import { firewallExpireJob, firewallReconcileTask } from '../modules/firewall/jobs.ts';
import { adsTxtCheckJob } from '../modules/publishers/ads-txt-check.ts';
import { prepaymentsPostSpendJob } from '../modules/prepayments/jobs.ts';
import { impressionLogCleanupJob, impressionLogExtractJob } from '../modules/impression-logs/jobs.ts';
import { discrepancyRunJob, discrepancySweepJob } from '../modules/discrepancy/jobs.ts';
import { schedulerRunJob, schedulerTickJob } from '../modules/scheduler/jobs.ts';
import { sspLogsPruneJob, sspLogsSampleJob } from '../modules/ssp-logs/jobs.ts';
import { creativesResizeCleanupJob } from '../modules/creatives/jobs.ts';
import { pruneJobRunsJob } from './maintenance.ts';
import type { JobDefinition, LocalTask } from './types.ts';

export const jobDefinitions: readonly JobDefinition[] = [firewallExpireJob as JobDefinition, pruneJobRunsJob, dataviewerSchedulesJob, adsTxtCheckJob, prepaymentsPostSpendJob, impressionLogExtractJob as JobDefinition, impressionLogCleanupJob, discrepancyRunJob as JobDefinition, discrepancySweepJob, schedulerTickJob, schedulerRunJob as JobDefinition, sspLogsSampleJob, sspLogsPruneJob, creativesResizeCleanupJob];

export const localTasks: readonly LocalTask[] = [firewallReconcileTask];
