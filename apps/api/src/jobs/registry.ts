/** Every background job and local task. Features add theirs here (see types.ts). */
import { firewallExpireJob, firewallReconcileTask } from '../modules/firewall/jobs.ts';
import { pruneJobRunsJob } from './maintenance.ts';
import type { JobDefinition, LocalTask } from './types.ts';

export const jobDefinitions: readonly JobDefinition[] = [firewallExpireJob as JobDefinition, pruneJobRunsJob];

export const localTasks: readonly LocalTask[] = [firewallReconcileTask];
