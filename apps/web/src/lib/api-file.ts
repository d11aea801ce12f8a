/**
 * Downloads a file the API writes (an export: CSV or XLSX of what a screen filters) with the
 * session's token and language, and saves it under the name the server gives. An error answer
 * becomes a FetchError with the server's message key (session errors sign out as usual).
 */
import { handleSessionError, REST_BASE } from './api.ts';
import { saveBlob } from './download.ts';
import { FetchError } from './fetch-client.ts';
import { useSession } from './session-store.ts';

/** GET `path?params` as a file; answers the file's name. `page` and `page_size` are dropped. */
export async function downloadApiFile(path: string, params: Record<string, string | number>, fallbackName: string): Promise<string> {
  const { user, locale } = useSession.getState();
  const search = new URLSearchParams(Object.entries(params).map(([k, v]) => [k, String(v)]));
  search.delete('page');
  search.delete('page_size');
  let response: Response;
  try {
    response = await fetch(`${REST_BASE}${path}?${search.toString()}`, {
      headers: { ...(user?.token ? { Authorization: `Bearer ${user.token}` } : {}), 'Accept-Language': locale, 'Cache-Control': 'no-cache' },
      cache: 'no-store',
    });
  } catch {
    throw new FetchError('Connection refused', { httpStatus: 0, key: 'common.connection_refused' });
  }
  if (!response.ok) {
    const body = (await response.json().catch(() => null)) as { message?: string; text?: string } | null;
    const error = new FetchError(body?.text ?? `Error ${response.status}`, { httpStatus: response.status, key: body?.message ?? null, text: body?.text ?? null });
    handleSessionError(error);
    throw error;
  }
  const name = /filename="([^"]+)"/.exec(response.headers.get('content-disposition') ?? '')?.[1] ?? fallbackName;
  saveBlob(await response.blob(), name);
  return name;
}

/** POST `body` as JSON to `path` and save the file the API answers (e.g. a SEPA file); answers its name. */
export async function postApiFile(path: string, body: unknown, fallbackName: string): Promise<string> {
  const { user, locale } = useSession.getState();
  let response: Response;
  try {
    response = await fetch(`${REST_BASE}${path}`, {
      method: 'POST',
      headers: {
        ...(user?.token ? { Authorization: `Bearer ${user.token}` } : {}),
        'Accept-Language': locale,
        'Content-Type': 'application/json',
      },
      body: JSON.stringify(body),
      cache: 'no-store',
    });
  } catch {
    throw new FetchError('Connection refused', { httpStatus: 0, key: 'common.connection_refused' });
  }
  if (!response.ok) {
    const answer = (await response.json().catch(() => null)) as { message?: string; text?: string; data?: unknown } | null;
    const error = new FetchError(answer?.text ?? `Error ${response.status}`, { httpStatus: response.status, key: answer?.message ?? null, text: answer?.text ?? null });
    handleSessionError(error);
    throw error;
  }
  const name = /filename="([^"]+)"/.exec(response.headers.get('content-disposition') ?? '')?.[1] ?? fallbackName;
  saveBlob(await response.blob(), name);
  return name;
}
