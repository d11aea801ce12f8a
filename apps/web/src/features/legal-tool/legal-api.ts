/** The legal tool's calls beyond the resource layer: versions, counterparties, the data check, generation. */
import type {
  CheckAnswer,
  CounterpartyOption,
  CounterpartyType,
  GenerateBody,
  LegalDocumentAnswer,
  LegalLanguage,
  TemplateVersionBody,
  TemplateVersionDto,
  TemplateVersionSummary,
} from '@backoffice/core/legal';
import { legalDocuments, legalTemplates } from '@backoffice/core/legal';
import { keepPreviousData, useQuery, useQueryClient } from '@tanstack/react-query';
import { api } from '../../lib/api.ts';
import { downloadApiFile } from '../../lib/api-file.ts';
import { resourceKey } from '../../resources/resource-api.ts';

export const versionsKey = (templateId: number) => ['legal', 'versions', templateId] as const;
export const versionKey = (templateId: number, number: number) =>
  ['legal', 'version', templateId, number] as const;

export function useVersions(templateId: number) {
  return useQuery({
    queryKey: versionsKey(templateId),
    queryFn: ({ signal }) =>
      api.request<TemplateVersionSummary[]>('legal/templates/:id/versions', {
        params: { id: templateId },
        signal,
      }),
  });
}

export function useVersion(templateId: number, number: number | null) {
  return useQuery({
    queryKey: versionKey(templateId, number ?? 0),
    enabled: number !== null,
    staleTime: Infinity, // a version never changes
    queryFn: ({ signal }) =>
      api.request<TemplateVersionDto>('legal/templates/:id/versions/:number', {
        params: { id: templateId, number: number! },
        signal,
      }),
  });
}

export function useCounterparties(type: CounterpartyType, q: string) {
  return useQuery({
    queryKey: ['legal', 'counterparties', type, q],
    placeholderData: keepPreviousData,
    queryFn: ({ signal }) =>
      api.request<CounterpartyOption[]>('legal/counterparties', { query: { type, q, limit: 30 }, signal }),
  });
}

export interface CheckParams {
  templateId: number;
  version: number;
  language: LegalLanguage;
  counterparty_type: CounterpartyType;
  counterparty_id: number;
}

export const checkKey = (p: CheckParams | null) => ['legal', 'check', p] as const;

export function useCheck(p: CheckParams | null) {
  return useQuery({
    queryKey: checkKey(p),
    enabled: p !== null,
    // Coming back from fixing a record in another tab shows the list as it is now.
    staleTime: 0,
    refetchOnWindowFocus: true,
    queryFn: ({ signal }) =>
      api.request<CheckAnswer>('legal/templates/:id/check', {
        method: 'POST',
        params: { id: p!.templateId },
        body: {
          version: p!.version,
          language: p!.language,
          counterparty_type: p!.counterparty_type,
          counterparty_id: p!.counterparty_id,
        },
        signal,
      }),
  });
}

export interface RecentDocument {
  id: number;
  counterparty_name: string;
  template_version: number;
  language: LegalLanguage;
  author_id_label: string | null;
  created_at: string;
  file_name: string;
  manual_count: number;
}

export function useRecentDocuments(templateId: number) {
  return useQuery({
    queryKey: [...resourceKey(legalDocuments), 'recent', templateId],
    queryFn: ({ signal }) =>
      api.request<{ items: RecentDocument[]; total: number }>('legal/documents', {
        query: { 'f[template_id]': String(templateId), sort: '-created_at', page_size: 5 },
        signal,
      }),
  });
}

export function useLegalMutations(templateId: number) {
  const client = useQueryClient();
  const refresh = async () => {
    await Promise.all([
      client.invalidateQueries({ queryKey: versionsKey(templateId) }),
      client.invalidateQueries({ queryKey: resourceKey(legalTemplates) }),
    ]);
  };
  return {
    saveVersion: async (body: TemplateVersionBody) => {
      const saved = await api.request<TemplateVersionDto>('legal/templates/:id/versions', {
        method: 'POST',
        params: { id: templateId },
        body,
      });
      client.setQueryData(versionKey(templateId, saved.number), saved);
      await refresh();
      return saved;
    },
    restoreVersion: async (number: number, base: number) => {
      const saved = await api.request<TemplateVersionDto>('legal/templates/:id/versions/:number/restore', {
        method: 'POST',
        params: { id: templateId, number },
        body: { base_version: base },
      });
      client.setQueryData(versionKey(templateId, saved.number), saved);
      await refresh();
      return saved;
    },
    generate: async (body: GenerateBody) => {
      const doc = await api.request<LegalDocumentAnswer>('legal/documents', { method: 'POST', body });
      await client.invalidateQueries({ queryKey: resourceKey(legalDocuments) });
      return doc;
    },
  };
}

/** A random UUID (v4) for a generation's request id; getRandomValues works outside a secure context too. */
export function newRequestId(): string {
  const b = crypto.getRandomValues(new Uint8Array(16));
  b[6] = (b[6]! & 0x0f) | 0x40;
  b[8] = (b[8]! & 0x3f) | 0x80;
  const hex = Array.from(b, (x) => x.toString(16).padStart(2, '0')).join('');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}

export function downloadDocument(id: number, fallback: string): Promise<string> {
  return downloadApiFile(`/v1/legal/documents/${id}/pdf`, {}, fallback);
}
