/**
 * prepayments-post-spend (pg-boss, daily at 05:40 UTC, after the warehouse's nightly load): posts
 * the prepaid advertisers' spend up to yesterday. Idempotent (one spend entry per advertiser and day,
 * a unique index), so a retry, an overlap with the screen's "post spend" action or a missed day
 * caught up the next morning never doubles a day.
 */
import { utcToday } from '@backoffice/core/billing-accounts';
import { dayBefore } from '@backoffice/core/prepayments';
import type { JobDefinition } from '../../jobs/types.ts';
import { postSpend } from './service.ts';

export const POST_SPEND_QUEUE = 'prepayments-post-spend';

export const prepaymentsPostSpendJob: JobDefinition = {
  queue: POST_SPEND_QUEUE,
  cron: '40 5 * * *',
  pollingIntervalSeconds: 30,
  queueOptions: { expireInSeconds: 600, retryLimit: 3, retryDelay: 300 },
  async handle(_job, jc) {
    const result = await postSpend(jc.ctx.database, null, dayBefore(utcToday()));
    if (result.posted > 0) jc.log.info(result, 'prepayments: spend posted');
    return result;
  },
};
