/**
 * What the campaign screens ask of the API beyond the resource layer: a campaign's pacing, an
 * event's postback tests and firing one (docs/decisions/043-offers-and-campaigns.md).
 */
import type { CampaignPacing } from '@backoffice/core/campaign-pacing';
import type { MacroValues, PostbackTestDto } from '@backoffice/core/postback';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api } from '../../lib/api.ts';
import type { FetchError } from '../../lib/fetch-client.ts';

export interface PacingAnswer extends CampaignPacing {
  currency: string;
  scope: { countries: string[]; devices: string[]; platforms_applied: boolean };
}

export type PostbackTest = PostbackTestDto;

export function usePacing(campaignId: number) {
  return useQuery<PacingAnswer, FetchError>({
    queryKey: ['api', 'campaigns', campaignId, 'pacing'],
    queryFn: ({ signal }) =>
      api.request<PacingAnswer>('campaigns/:id/pacing', { params: { id: campaignId }, signal }),
  });
}

const testsKey = (campaignId: number, eventId: number) =>
  ['api', 'campaigns', campaignId, 'events', eventId, 'postback-tests'] as const;

export function usePostbackTests(campaignId: number, eventId: number) {
  return useQuery<PostbackTest[], FetchError>({
    queryKey: testsKey(campaignId, eventId),
    queryFn: ({ signal }) =>
      api.request<PostbackTest[]>('campaigns/:id/events/:eventId/postback-tests', {
        params: { id: campaignId, eventId },
        signal,
      }),
  });
}

/** Fires a test conversion; one idempotency key per click, so a retried request does it once. */
export function useFirePostbackTest(campaignId: number, eventId: number) {
  const client = useQueryClient();
  return useMutation<PostbackTest, FetchError, { values: MacroValues; idempotencyKey: string }>({
    mutationFn: ({ values, idempotencyKey }) =>
      api.request<PostbackTest>('campaigns/:id/events/:eventId/postback-test', {
        method: 'POST',
        params: { id: campaignId, eventId },
        body: { values, idempotency_key: idempotencyKey },
      }),
    onSettled: () => client.invalidateQueries({ queryKey: testsKey(campaignId, eventId) }),
  });
}
