/**
 * The apps of the SDK builder and the app tracking manager (`/v1/sdk/apps`, contract in
 * packages/core/src/sdk-apps.ts): one app with its ad units, its profile, its app-ads.txt check.
 * Shared by both screens (they are separate features), so it lives with the shared components.
 */
import type { AppProfileBody, SdkApp } from '@backoffice/core/sdk-apps';
import type { QueryClient } from '@tanstack/react-query';
import { api } from '../../lib/api.ts';
import { apiQueryKey, useApiQuery } from '../../lib/query.ts';

const ONE = 'sdk/apps/:id';

export function useSdkApp(id: number | null) {
  return useApiQuery<SdkApp>(id === null ? null : ONE, { params: { id: id ?? 0 } }, { staleTime: 30_000 });
}

/** Puts the API's answer for an app in the cache (both screens and every open panel show it). */
export function storeSdkApp(queries: QueryClient, app: SdkApp): void {
  queries.setQueryData(apiQueryKey(ONE, { params: { id: app.id } }), app);
}

export function saveAppProfile(id: number, body: AppProfileBody): Promise<SdkApp> {
  return api.request<SdkApp>(ONE, { method: 'PUT', params: { id }, body });
}

/** Reads the app's app-ads.txt now (the publishers' ads.txt check); the app with its new status. */
export function checkAppAds(id: number): Promise<SdkApp> {
  return api.request<SdkApp>(`${ONE}/app-ads-check`, { method: 'POST', params: { id }, body: {} });
}
