/** The signature manager's calls (`/v1/signatures/…`) and the clipboard. */
import type {
  MySignatureAnswer,
  RenderTemplate,
  SignatureDetail,
  SignatureFields,
  SignaturePerson,
  SignatureRender,
  SignatureTemplate,
} from '@backoffice/core/signatures';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { api } from '../../lib/api.ts';

export type EditorSource = { kind: 'me' } | { kind: 'person'; id: number };

export const signaturesKey = ['signatures'] as const;
export const templatesKey = ['signatures', 'templates'] as const;
export const detailKey = (source: EditorSource) => ['signatures', 'detail', source.kind === 'me' ? 'me' : source.id] as const;

export const detailPath = (source: EditorSource) => (source.kind === 'me' ? 'signatures/me' : `signatures/people/${source.id}`);

export function useMySignature() {
  return useQuery({ queryKey: detailKey({ kind: 'me' }), queryFn: ({ signal }) => api.request<MySignatureAnswer>('signatures/me', { signal }) });
}

export function useSignatureDetail(source: EditorSource, enabled = true) {
  return useQuery({ queryKey: detailKey(source), enabled, queryFn: ({ signal }) => api.request<SignatureDetail>(detailPath(source), { signal }) });
}

export function useTemplates() {
  return useQuery({ queryKey: templatesKey, queryFn: ({ signal }) => api.request<SignatureTemplate[]>('signatures/templates', { signal }) });
}

export function usePeople(q: string, enabled: boolean) {
  return useQuery({
    queryKey: ['signatures', 'people', q],
    enabled,
    placeholderData: keepPreviousData,
    queryFn: ({ signal }) => api.request<SignaturePerson[]>('signatures/people', { query: q ? { q } : {}, signal }),
  });
}

/** The API's rendering of a signature as typed: what Copy and Download take. */
export function renderOnServer(fields: SignatureFields): Promise<SignatureRender> {
  return api.request<SignatureRender>('signatures/render', { method: 'POST', body: fields });
}

/** A template as the renderer takes it, its logo at the absolute URL the API serves it from. */
export function renderTemplate(t: SignatureTemplate | null, logoOverride?: { url: string; width: number; height: number } | null): RenderTemplate | null {
  if (!t) return null;
  if (logoOverride !== undefined) {
    return { ...t, logo_url: logoOverride?.url ?? null, logo_size: logoOverride ? { width: logoOverride.width, height: logoOverride.height } : null };
  }
  return { ...t, logo_url: t.logo_path ? new URL(api.url(t.logo_path), window.location.href).href : null };
}

/**
 * Puts a signature on the clipboard as HTML (what mail clients paste as formatting) and as plain
 * text (for plain-text editors). The Clipboard API where the browser has it; otherwise a copy
 * command whose event carries both types. Throws when neither works.
 */
export async function copySignature(html: string, text: string): Promise<void> {
  const clip = typeof navigator !== 'undefined' ? navigator.clipboard : undefined;
  if (clip && typeof clip.write === 'function' && typeof ClipboardItem !== 'undefined') {
    await clip.write([
      new ClipboardItem({
        'text/html': new Blob([html], { type: 'text/html' }),
        'text/plain': new Blob([text], { type: 'text/plain' }),
      }),
    ]);
    return;
  }
  copyWithCommand({ 'text/html': html, 'text/plain': text });
}

/** Copies text as it is (the HTML source). */
export async function copyText(text: string): Promise<void> {
  const clip = typeof navigator !== 'undefined' ? navigator.clipboard : undefined;
  if (clip && typeof clip.writeText === 'function') return clip.writeText(text);
  copyWithCommand({ 'text/plain': text });
}

function copyWithCommand(data: Record<string, string>): void {
  let done = false;
  const onCopy = (e: ClipboardEvent) => {
    if (!e.clipboardData) return;
    for (const [type, value] of Object.entries(data)) e.clipboardData.setData(type, value);
    e.preventDefault();
    done = true;
  };
  document.addEventListener('copy', onCopy);
  try {
    document.execCommand('copy');
  } finally {
    document.removeEventListener('copy', onCopy);
  }
  if (!done) throw new Error('copy refused');
}
