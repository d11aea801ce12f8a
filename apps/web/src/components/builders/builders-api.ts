/**
 * The builder screens' calls to `/v1/builders/:kind/…` (apps/api/src/modules/builders/routes.ts)
 * through the app's fetch client and TanStack Query.
 */
import type {
  BuilderCompareAnswer,
  BuilderKind,
  BuilderRenderAnswer,
  BuilderRenderBody,
  BuilderSubject,
  BuilderSubjectOption,
  BuilderVersionBody,
  BuilderVersionDto,
  BuilderVersionPage,
} from '@backoffice/core/builders/common';
import { BUILDER_VERSIONS_PAGE_SIZE } from '@backoffice/core/builders/common';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { api } from '../../lib/api.ts';
import type { FetchError } from '../../lib/fetch-client.ts';
import { useApiQuery } from '../../lib/query.ts';

const base = (kind: BuilderKind) => `builders/${kind}`;

/** POST render: the output and every issue, the standard's validator's included. */
export function renderOnServer(kind: BuilderKind, body: BuilderRenderBody, signal?: AbortSignal): Promise<BuilderRenderAnswer> {
  return api.request<BuilderRenderAnswer>(`${base(kind)}/render`, { method: 'POST', body, signal });
}

/**
 * The API's check of the current code or configuration (`body`, already debounced by the caller;
 * null: nothing to check). Kept per body, so going back to a text already checked answers at once.
 */
export function useServerCheck(kind: BuilderKind, body: BuilderRenderBody | null) {
  const key = body === null ? null : JSON.stringify(body);
  return useQuery<BuilderRenderAnswer, FetchError>({
    queryKey: ['builders', kind, 'render', key],
    queryFn: ({ signal }) => renderOnServer(kind, body!, signal),
    enabled: body !== null,
    staleTime: 300_000,
    retry: false,
  });
}

/** The subject picker's matches for `q` (or the one subject `id`). */
export function useSubjects(kind: BuilderKind, type: BuilderSubject | null, q: string, id?: number | null) {
  const query: Record<string, string | number> = {};
  if (type) query.type = type;
  if (q.trim() !== '') query.q = q.trim();
  if (id) query.id = id;
  return useApiQuery<BuilderSubjectOption[]>(type && type !== 'none' ? `${base(kind)}/subjects` : null, { query }, { staleTime: 60_000, placeholderData: keepPreviousData });
}

export function versionsKey(kind: BuilderKind): readonly unknown[] {
  return ['api', `${base(kind)}/versions`];
}

/** The subject's saved versions (every version of the builder when `subject` is null), newest first. */
export function useVersions(kind: BuilderKind, subject: { type: BuilderSubject; id: number | null } | null, page: number, enabled = true) {
  const query: Record<string, string | number> = { page, page_size: BUILDER_VERSIONS_PAGE_SIZE };
  if (subject) {
    query.subject_type = subject.type;
    if (subject.id !== null) query.subject_id = subject.id;
  }
  return useApiQuery<BuilderVersionPage>(`${base(kind)}/versions`, { query }, { enabled, placeholderData: keepPreviousData });
}

export function fetchVersion(kind: BuilderKind, id: number): Promise<BuilderVersionDto> {
  return api.request<BuilderVersionDto>(`${base(kind)}/versions/:id`, { params: { id } });
}

export function saveVersion(kind: BuilderKind, body: BuilderVersionBody): Promise<BuilderVersionDto> {
  return api.request<BuilderVersionDto>(`${base(kind)}/versions`, { method: 'POST', body });
}

export function deleteVersion(kind: BuilderKind, id: number): Promise<BuilderVersionDto> {
  return api.request<BuilderVersionDto>(`${base(kind)}/versions/:id`, { method: 'DELETE', params: { id } });
}

export function useCompare(kind: BuilderKind, a: number | null, b: number | null) {
  return useApiQuery<BuilderCompareAnswer>(a && b ? `${base(kind)}/compare` : null, { query: { a: a ?? 0, b: b ?? 0 } }, { staleTime: 300_000 });
}
