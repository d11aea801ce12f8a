/**
 * The resources manager's side of the API (packages/core/src/files.ts,
 * apps/api/src/modules/resources-manager/): the folder tree, uploads with per-file progress (an
 * XMLHttpRequest per file: fetch reports no upload progress), the bytes of a file for the preview
 * and downloads (with the session's token: an <img> cannot send it), bulk moves and deletes, and
 * folder changes. The file list itself is the resource layer's (resources/resource-api.ts).
 */
import { FILES_API, resourceFiles, type ResourceFileRow, type ResourceFolder } from '@backoffice/core/files';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useCallback } from 'react';
import { api, handleSessionError, REST_BASE } from '../../lib/api.ts';
import { saveBlob } from '../../lib/download.ts';
import { FetchError } from '../../lib/fetch-client.ts';
import { useSession } from '../../lib/session-store.ts';
import { resourceKey } from '../../resources/resource-api.ts';

/** Paths relative to the fetch client's base. */
export const FOLDERS_PATH = 'resources-manager/folders';
export const FILES_PATH = 'resources-manager/files';

export const foldersKey = ['api', 'resources-manager', 'folders'] as const;

export function useFolders() {
  return useQuery<ResourceFolder[], FetchError>({
    queryKey: foldersKey,
    queryFn: ({ signal }) => api.request<ResourceFolder[]>(FOLDERS_PATH, { signal }),
  });
}

/** Refreshes the file lists and the folder tree (counts) after a change. */
export function useRefreshFiles() {
  const client = useQueryClient();
  return useCallback(
    () =>
      Promise.all([
        client.invalidateQueries({ queryKey: resourceKey(resourceFiles) }),
        client.invalidateQueries({ queryKey: foldersKey }),
      ]),
    [client],
  );
}

function authHeaders(): Record<string, string> {
  const { user, locale } = useSession.getState();
  return { ...(user?.token ? { Authorization: `Bearer ${user.token}` } : {}), 'Accept-Language': locale };
}

/** An error answer as a FetchError (its key, params and field errors); session errors sign out. */
function errorOf(status: number, body: unknown): FetchError {
  const b = (body ?? {}) as {
    message?: string;
    text?: string;
    errors?: Record<string, string>;
    params?: Record<string, string | number>;
  };
  const error = new FetchError(b.text ?? `Error ${status}`, {
    httpStatus: status,
    key: b.message ?? null,
    text: b.text ?? null,
    errors: b.errors ?? null,
    params: b.params ?? null,
    body,
  });
  handleSessionError(error);
  return error;
}

/**
 * Uploads one file (the form's `files[]`, spec section 7) into a folder, reporting progress (0-100);
 * answers the stored file. Aborted by `signal`.
 */
export function uploadFile(
  file: File,
  folderId: number | null,
  onProgress: (percent: number) => void,
  signal?: AbortSignal,
): Promise<ResourceFileRow> {
  return new Promise((resolve, reject) => {
    const xhr = new XMLHttpRequest();
    xhr.open('POST', `${REST_BASE}${FILES_API}/files`);
    for (const [k, v] of Object.entries(authHeaders())) xhr.setRequestHeader(k, v);
    xhr.setRequestHeader('Cache-Control', 'no-cache');
    xhr.responseType = 'json';
    xhr.upload.onprogress = (e) => {
      if (e.lengthComputable) onProgress(Math.min(99, Math.round((e.loaded * 100) / e.total)));
    };
    xhr.onload = () => {
      const body = xhr.response as { data?: { files?: ResourceFileRow[] } } | null;
      if (xhr.status >= 200 && xhr.status < 300 && body?.data?.files?.[0]) {
        onProgress(100);
        resolve(body.data.files[0]);
      } else reject(errorOf(xhr.status, body));
    };
    xhr.onerror = () =>
      reject(new FetchError('Connection refused', { httpStatus: 0, key: 'common.connection_refused' }));
    xhr.onabort = () => reject(new DOMException('aborted', 'AbortError'));
    signal?.addEventListener('abort', () => xhr.abort(), { once: true });
    const form = new FormData();
    if (folderId !== null) form.append('folder_id', String(folderId));
    form.append('files[]', file, file.name);
    xhr.send(form);
  });
}

/** The bytes of a file (inline: the preview's), as a blob with the type the server read. */
export async function fetchFileBlob(
  id: number,
  inline: boolean,
  signal?: AbortSignal,
): Promise<{ blob: Blob; name: string | null }> {
  let response: Response;
  try {
    response = await fetch(`${REST_BASE}${FILES_API}/files/${id}/content${inline ? '?inline=true' : ''}`, {
      headers: authHeaders(),
      cache: 'no-store',
      signal,
    });
  } catch (err) {
    if ((err as Error).name === 'AbortError') throw err;
    throw new FetchError('Connection refused', { httpStatus: 0, key: 'common.connection_refused' });
  }
  if (!response.ok) throw errorOf(response.status, await response.json().catch(() => null));
  const disposition = response.headers.get('content-disposition') ?? '';
  const utf8 = /filename\*=UTF-8''([^;]+)/i.exec(disposition)?.[1];
  const name = utf8 ? decodeURIComponent(utf8) : (/filename="([^"]+)"/.exec(disposition)?.[1] ?? null);
  return { blob: await response.blob(), name };
}

/** Downloads a file under its own name. */
export async function downloadFile(row: Pick<ResourceFileRow, 'id' | 'name'>): Promise<void> {
  const { blob, name } = await fetchFileBlob(row.id, false);
  saveBlob(blob, name ?? row.name);
}

export const deleteFilesRequest = (ids: number[]) =>
  api.request<{ deleted: number[]; missing: number[] }>(`${FILES_PATH}/delete`, {
    method: 'POST',
    body: { ids },
  });

export const moveFilesRequest = (ids: number[], folderId: number | null) =>
  api.request<{ moved: number[]; missing: number[] }>(`${FILES_PATH}/move`, {
    method: 'POST',
    body: { ids, folder_id: folderId },
  });

export const renameFileRequest = (row: Pick<ResourceFileRow, 'id' | 'folder_id' | 'version'>, name: string) =>
  api.request<ResourceFileRow>(`${FILES_PATH}/:id`, {
    method: 'PUT',
    params: { id: row.id },
    body: { name, folder_id: row.folder_id, version: row.version },
  });

export const createFolderRequest = (name: string, parentId: number | null) =>
  api.request<ResourceFolder>(FOLDERS_PATH, { method: 'POST', body: { name, parent_id: parentId } });

export const updateFolderRequest = (
  folder: Pick<ResourceFolder, 'id' | 'version'>,
  name: string,
  parentId: number | null,
) =>
  api.request<ResourceFolder>(`${FOLDERS_PATH}/:id`, {
    method: 'PUT',
    params: { id: folder.id },
    body: { name, parent_id: parentId, version: folder.version },
  });

export const deleteFolderRequest = (id: number) =>
  api.request<null>(`${FOLDERS_PATH}/:id`, { method: 'DELETE', params: { id } });

/** Folders as antd tree nodes (children sorted by name), with the files directly inside. */
export interface FolderNode {
  key: number;
  title: string;
  value: number;
  files: number;
  children: FolderNode[];
}

export function folderTree(folders: readonly ResourceFolder[]): FolderNode[] {
  const nodes = new Map<number, FolderNode>(
    folders.map((f) => [f.id, { key: f.id, value: f.id, title: f.name, files: f.files, children: [] }]),
  );
  const roots: FolderNode[] = [];
  for (const f of folders) {
    const node = nodes.get(f.id)!;
    const parent = f.parent_id === null ? undefined : nodes.get(f.parent_id);
    (parent ? parent.children : roots).push(node);
  }
  const sort = (list: FolderNode[]) => {
    list.sort((a, b) => a.title.localeCompare(b.title));
    for (const n of list) sort(n.children);
    return list;
  };
  return sort(roots);
}
