/**
 * The shared fetch client (spec section 7, "Shared fetch behaviour"), written once:
 * - relative paths get the REST base and the /v1/ prefix;
 * - the token goes in an Authorization header, together with no-cache headers;
 * - JSON bodies are serialised, FormData is sent as is, uploads use multipart with file lists
 *   as `name[]`;
 * - the answer is parsed as JSON, else taken as plain text;
 * - status 'error' or 'ko' makes `message`, `msg` or `errors` the error; otherwise `data` is the
 *   result, else the whole body; a message 'ok' or a numeric one is ignored;
 * - `:name` path parameters are replaced; query strings come from core/query-string;
 * - errors 'Another fetch is still in progress', 'No url recieved' (sic, spec text),
 *   'Error {status}: {statusText}' for a non-JSON answer that is not ok;
 * - a network error sets the status to error and aborts the request;
 * - the fetch status is idle, fetch, error, or the server status in lowercase.
 */
import { withQuery, type QueryParams } from '@backoffice/core/query-string';

export const FETCH_IN_PROGRESS = 'Another fetch is still in progress';
export const NO_URL = 'No url recieved';
/** i18n key of the message shown for a network error. */
export const CONNECTION_REFUSED_KEY = 'common.connection_refused';

export type FetchStatus = 'idle' | 'fetch' | 'error' | (string & {});

export type HttpMethod = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

export interface RequestOptions {
  method?: HttpMethod;
  /** Values for `:name` placeholders in the path. */
  params?: Record<string, string | number>;
  /** Filters turned into the query string. */
  query?: QueryParams;
  /** A plain object is sent as JSON (or multipart when it holds files); FormData as is. */
  body?: unknown;
  /** Force a multipart upload of a plain object body. */
  upload?: boolean;
  headers?: Record<string, string>;
  /** Use this token instead of the session's (an ADMIN's own token while simulating). */
  token?: string | null;
  signal?: AbortSignal;
}

export interface FetchResult<T> {
  data: T;
  /** The answer's message when it says something ('ok' and numeric messages are ignored). */
  message: string | null;
  /** The server status in lowercase ('success'), or 'success'/'error' from the HTTP status. */
  status: string;
}

/** An error answer or a failed request. `key` is the envelope's i18n message key. */
export class FetchError extends Error {
  override readonly name = 'FetchError';
  constructor(
    message: string,
    readonly details: {
      /** HTTP status; 0 for a network error or a client-side refusal. */
      httpStatus: number;
      /** Envelope message (an i18n key for this API), when the answer had one. */
      key?: string | null;
      /** Envelope `text`: the key already translated by the server. */
      text?: string | null;
      errors?: Record<string, string> | null;
      params?: Record<string, string | number> | null;
      body?: unknown;
    },
  ) {
    super(message);
  }
  get httpStatus(): number {
    return this.details.httpStatus;
  }
  get key(): string | null {
    return this.details.key ?? null;
  }
}

export interface FetchClientConfig {
  /** REST base, for example 'https://api.example.com'; '' means the page's own origin. */
  restBase?: string;
  getToken?: () => string | null | undefined;
  /** Sent as Accept-Language so the envelope `text` comes in the user's language. */
  getLocale?: () => string | null | undefined;
  fetchImpl?: typeof fetch;
  /**
   * Called with every FetchError before it is thrown (session expiry handling), with the token the
   * request was sent with (null: none).
   */
  onError?: (error: FetchError, request: { token: string | null }) => void;
}

const ABSOLUTE_URL = /^[a-z][a-z\d+.-]*:\/\//i;

/** Relative paths get the REST base and the /v1/ prefix; absolute URLs are kept. */
export function resolveUrl(url: string, restBase = ''): string {
  if (ABSOLUTE_URL.test(url)) return url;
  const path = url.replace(/^\/+/, '');
  const withPrefix = path.startsWith('v1/') || path === 'v1' ? path : `v1/${path}`;
  return `${restBase.replace(/\/+$/, '')}/${withPrefix}`;
}

/** Replaces `:name` placeholders that start a path segment with encoded values; a missing value is an error. */
export function fillPathParams(url: string, params: Record<string, string | number> = {}): string {
  return url.replace(/(^|\/):([A-Za-z_][A-Za-z0-9_]*)/g, (_match, lead: string, name: string) => {
    const value = params[name];
    if (value === undefined || value === null || value === '') throw new Error(`Missing path parameter :${name}`);
    return `${lead}${encodeURIComponent(String(value))}`;
  });
}

function isFileLike(value: unknown): value is Blob {
  return typeof Blob !== 'undefined' && value instanceof Blob;
}

function isFileList(value: unknown): value is FileList | readonly Blob[] {
  if (typeof FileList !== 'undefined' && value instanceof FileList) return true;
  return Array.isArray(value) && value.length > 0 && value.every(isFileLike);
}

/** Does a plain object carry files (then it goes as a multipart upload)? */
export function hasFiles(body: unknown): boolean {
  if (body === null || typeof body !== 'object') return false;
  return Object.values(body as Record<string, unknown>).some((v) => isFileLike(v) || isFileList(v));
}

/** Multipart form: a file as `name`, a file list as `name[]` per file, objects as JSON, the rest as text. */
export function toFormData(body: Record<string, unknown>): FormData {
  const form = new FormData();
  for (const [name, value] of Object.entries(body)) {
    if (value === undefined || value === null) continue;
    if (isFileList(value)) {
      for (const file of Array.from(value)) form.append(`${name}[]`, file);
    } else if (isFileLike(value)) {
      form.append(name, value);
    } else if (typeof value === 'object') {
      form.append(name, JSON.stringify(value));
    } else {
      form.append(name, String(value));
    }
  }
  return form;
}

/** The fetch body and its content type (none for FormData: the browser sets the boundary). */
export function encodeBody(body: unknown, upload = false): { body: BodyInit | undefined; contentType: string | null } {
  if (body === undefined || body === null) return { body: undefined, contentType: null };
  if (typeof FormData !== 'undefined' && body instanceof FormData) return { body, contentType: null };
  if (typeof body === 'string') return { body, contentType: 'text/plain;charset=UTF-8' };
  if (typeof URLSearchParams !== 'undefined' && body instanceof URLSearchParams) return { body, contentType: null };
  if (isFileLike(body)) return { body, contentType: null };
  if (typeof body === 'object' && !Array.isArray(body) && (upload || hasFiles(body))) {
    return { body: toFormData(body as Record<string, unknown>), contentType: null };
  }
  return { body: JSON.stringify(body), contentType: 'application/json' };
}

/** 'ok' (any case) and numeric messages say nothing (spec section 7). */
export function isIgnoredMessage(message: unknown): boolean {
  if (typeof message === 'number') return true;
  if (typeof message !== 'string') return true;
  const m = message.trim();
  if (m === '' || m.toLowerCase() === 'ok') return true;
  return /^-?\d+(\.\d+)?$/.test(m);
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}

function errorsText(errors: unknown): string | null {
  if (typeof errors === 'string') return errors;
  if (Array.isArray(errors)) return errors.map(String).join(', ');
  if (isRecord(errors)) return Object.values(errors).map(String).join(', ');
  return null;
}

/** Interprets a parsed answer by the spec's rules; throws a FetchError for an error answer. */
export function interpretAnswer<T>(parsed: { json: boolean; value: unknown }, response: Pick<Response, 'ok' | 'status' | 'statusText'>): FetchResult<T> {
  if (!parsed.json) {
    if (!response.ok) {
      throw new FetchError(`Error ${response.status}: ${response.statusText}`, { httpStatus: response.status, body: parsed.value });
    }
    return { data: parsed.value as T, message: null, status: 'success' };
  }
  const body = parsed.value;
  const serverStatus = isRecord(body) && typeof body.status === 'string' ? body.status.toLowerCase() : null;
  const isError = serverStatus === 'error' || serverStatus === 'ko' || !response.ok;
  if (isError) {
    const record = isRecord(body) ? body : {};
    const key = [record.message, record.msg].find((m) => typeof m === 'string' && !isIgnoredMessage(m)) as string | undefined;
    const errors = isRecord(record.errors) ? (record.errors as Record<string, string>) : null;
    const text = typeof record.text === 'string' ? record.text : null;
    const message =
      text ?? key ?? errorsText(record.errors) ?? (response.ok ? 'Error' : `Error ${response.status}: ${response.statusText}`);
    throw new FetchError(message, {
      httpStatus: response.ok ? 200 : response.status,
      key: key ?? null,
      text,
      errors,
      params: isRecord(record.params) ? (record.params as Record<string, string | number>) : null,
      body,
    });
  }
  const message = isRecord(body) && !isIgnoredMessage(body.message) ? (body.message as string) : null;
  const data = isRecord(body) && 'data' in body ? body.data : body;
  return { data: data as T, message, status: serverStatus ?? 'success' };
}

async function readAnswer(response: Response): Promise<{ json: boolean; value: unknown }> {
  const text = await response.text();
  if (text === '') return { json: false, value: '' };
  try {
    return { json: true, value: JSON.parse(text) as unknown };
  } catch {
    return { json: false, value: text };
  }
}

export interface FetchClient {
  /** The full answer: data, meaningful message and server status. */
  requestFull<T>(url: string, options?: RequestOptions): Promise<FetchResult<T>>;
  /** The data only. */
  request<T>(url: string, options?: RequestOptions): Promise<T>;
  /** Resolves a path or URL the way requests do (for links and images served by the API). */
  url(path: string, options?: Pick<RequestOptions, 'params' | 'query'>): string;
}

export function createFetchClient(config: FetchClientConfig = {}): FetchClient {
  const report = (error: FetchError, token: string | null): FetchError => {
    config.onError?.(error, { token });
    return error;
  };

  const buildUrl = (url: string, options: Pick<RequestOptions, 'params' | 'query'> = {}) =>
    withQuery(resolveUrl(fillPathParams(url, options.params), config.restBase ?? ''), options.query);

  async function requestFull<T>(url: string, options: RequestOptions = {}): Promise<FetchResult<T>> {
    if (!url || url.trim() === '') throw new FetchError(NO_URL, { httpStatus: 0 });
    const target = buildUrl(url, options);
    const method = options.method ?? (options.body === undefined ? 'GET' : 'POST');
    const { body, contentType } = encodeBody(options.body, options.upload);
    const headers: Record<string, string> = {
      Accept: 'application/json, text/plain, */*',
      'Cache-Control': 'no-cache',
      Pragma: 'no-cache',
      ...options.headers,
    };
    if (contentType) headers['Content-Type'] = contentType;
    const token = options.token ?? config.getToken?.();
    if (token) headers.Authorization = `Bearer ${token}`;
    const locale = config.getLocale?.();
    if (locale) headers['Accept-Language'] = locale;

    const fetchImpl = config.fetchImpl ?? globalThis.fetch.bind(globalThis);
    let response: Response;
    try {
      response = await fetchImpl(target, { method, headers, body, signal: options.signal, cache: 'no-store' });
    } catch (error) {
      if (options.signal?.aborted) throw error;
      throw report(new FetchError('Connection refused', { httpStatus: 0, key: CONNECTION_REFUSED_KEY, body: error }), token ?? null);
    }
    const parsed = await readAnswer(response);
    try {
      return interpretAnswer<T>(parsed, response);
    } catch (error) {
      if (error instanceof FetchError) throw report(error, token ?? null);
      throw error;
    }
  }

  return {
    requestFull,
    request: async <T,>(url: string, options?: RequestOptions) => (await requestFull<T>(url, options)).data,
    url: buildUrl,
  };
}

/**
 * A single-flight fetcher with the spec's status: idle -> fetch -> the server status in
 * lowercase, or error. A second call while one is in flight is refused with
 * 'Another fetch is still in progress' (callers ignore it); a network error sets the status to
 * error and aborts the request.
 */
export interface Fetcher {
  readonly status: FetchStatus;
  readonly error: FetchError | null;
  run<T>(url: string, options?: RequestOptions): Promise<FetchResult<T>>;
  abort(): void;
  subscribe(listener: () => void): () => void;
}

export function createFetcher(client: FetchClient): Fetcher {
  let status: FetchStatus = 'idle';
  let lastError: FetchError | null = null;
  let controller: AbortController | null = null;
  const listeners = new Set<() => void>();
  const set = (next: FetchStatus, error: FetchError | null) => {
    status = next;
    lastError = error;
    for (const l of listeners) l();
  };

  return {
    get status() {
      return status;
    },
    get error() {
      return lastError;
    },
    async run<T>(url: string, options: RequestOptions = {}) {
      if (status === 'fetch') throw new FetchError(FETCH_IN_PROGRESS, { httpStatus: 0 });
      if (!url || url.trim() === '') {
        const error = new FetchError(NO_URL, { httpStatus: 0 });
        set('error', error);
        throw error;
      }
      const own = new AbortController();
      controller = own;
      const onOuterAbort = () => own.abort();
      options.signal?.addEventListener('abort', onOuterAbort, { once: true });
      set('fetch', null);
      try {
        const result = await client.requestFull<T>(url, { ...options, signal: own.signal });
        set(result.status, null);
        return result;
      } catch (error) {
        const fetchError =
          error instanceof FetchError ? error : new FetchError(error instanceof Error ? error.message : String(error), { httpStatus: 0 });
        if (fetchError.httpStatus === 0) own.abort();
        set('error', fetchError);
        throw fetchError;
      } finally {
        options.signal?.removeEventListener('abort', onOuterAbort);
        if (controller === own) controller = null;
      }
    },
    abort() {
      controller?.abort();
    },
    subscribe(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
  };
}
