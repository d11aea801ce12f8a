import { describe, expect, it, vi } from 'vitest';
import {
  createFetchClient,
  createFetcher,
  encodeBody,
  FETCH_IN_PROGRESS,
  FetchError,
  fillPathParams,
  hasFiles,
  interpretAnswer,
  isIgnoredMessage,
  NO_URL,
  resolveUrl,
  toFormData,
  type FetchClientConfig,
} from './fetch-client.ts';

interface Call {
  url: string;
  init: RequestInit;
}

function jsonResponse(body: unknown, status = 200, statusText = 'OK'): Response {
  return new Response(JSON.stringify(body), { status, statusText, headers: { 'content-type': 'application/json' } });
}

function fakeFetch(answer: Response | (() => Response | Promise<Response>)) {
  const calls: Call[] = [];
  const impl = vi.fn(async (input: RequestInfo | URL, init?: RequestInit) => {
    calls.push({ url: String(input), init: init ?? {} });
    return typeof answer === 'function' ? answer() : answer;
  });
  return { calls, impl: impl as unknown as typeof fetch };
}

function client(answer: Response | (() => Response | Promise<Response>), config: FetchClientConfig = {}) {
  const f = fakeFetch(answer);
  return { ...f, api: createFetchClient({ fetchImpl: f.impl, ...config }) };
}

const headersOf = (call: Call | undefined) => (call?.init.headers ?? {}) as Record<string, string>;

describe('URLs', () => {
  it('gives relative paths the REST base and the /v1/ prefix', () => {
    expect(resolveUrl('login')).toBe('/v1/login');
    expect(resolveUrl('/login')).toBe('/v1/login');
    expect(resolveUrl('admin/menu', 'https://api.example.com/')).toBe('https://api.example.com/v1/admin/menu');
    expect(resolveUrl('/v1/login')).toBe('/v1/login');
    expect(resolveUrl('v1/login', 'http://x')).toBe('http://x/v1/login');
  });

  it('keeps absolute URLs as they are', () => {
    expect(resolveUrl('https://other.example/api/x', 'http://rest')).toBe('https://other.example/api/x');
  });

  it('replaces :name path parameters, encoded', () => {
    expect(fillPathParams('admin/role/:id/acl', { id: 4 })).toBe('admin/role/4/acl');
    expect(fillPathParams('/a/:x/b/:y_2', { x: 'a b', y_2: 'c/d' })).toBe('/a/a%20b/b/c%2Fd');
    expect(fillPathParams(':id/x', { id: 1 })).toBe('1/x');
    expect(fillPathParams('http://host:3000/v1/x?t=10:30')).toBe('http://host:3000/v1/x?t=10:30');
    expect(() => fillPathParams('admin/role/:id/acl', {})).toThrow('Missing path parameter :id');
  });

  it('builds the full URL with path parameters and the query string', async () => {
    const { api, calls } = client(jsonResponse({ status: 'success', message: 'ok', data: [] }));
    await api.request('firewall/entries/:id', { params: { id: 3 }, query: { page: 2, f: { status: 'ACTIVE' }, ids: [1, 2] } });
    expect(calls[0]?.url).toBe('/v1/firewall/entries/3?page=2&f[status]=ACTIVE&ids=1,2');
    expect(api.url('staff/pic/:id', { params: { id: 'ana' } })).toBe('/v1/staff/pic/ana');
  });
});

describe('headers', () => {
  it('sends the token as a Bearer Authorization with no-cache headers', async () => {
    const { api, calls } = client(jsonResponse({ status: 'success', data: 1 }), { getToken: () => 'abc.def.ghi', getLocale: () => 'es' });
    await api.request('admin/menu');
    const h = headersOf(calls[0]);
    expect(h.Authorization).toBe('Bearer abc.def.ghi');
    expect(h['Cache-Control']).toBe('no-cache');
    expect(h.Pragma).toBe('no-cache');
    expect(h['Accept-Language']).toBe('es');
    expect(calls[0]?.init.cache).toBe('no-store');
    expect(calls[0]?.init.method).toBe('GET');
  });

  it('uses an explicit token over the session one', async () => {
    const { api, calls } = client(jsonResponse({ status: 'success', data: 1 }), { getToken: () => 'session' });
    await api.request('admin/role', { token: 'admin-own' });
    expect(headersOf(calls[0]).Authorization).toBe('Bearer admin-own');
  });

  it('sends no Authorization without a token', async () => {
    const { api, calls } = client(jsonResponse({ status: 'success', data: 1 }), { getToken: () => null });
    await api.request('staff/welcome');
    expect(headersOf(calls[0]).Authorization).toBeUndefined();
  });
});

describe('bodies', () => {
  it('serialises JSON bodies and defaults to POST', async () => {
    const { api, calls } = client(jsonResponse({ status: 'success', data: { id: 1 } }));
    await api.request('login', { body: { email: 'a@b.c', password: 'x' } });
    expect(calls[0]?.init.method).toBe('POST');
    expect(calls[0]?.init.body).toBe('{"email":"a@b.c","password":"x"}');
    expect(headersOf(calls[0])['Content-Type']).toBe('application/json');
  });

  it('sends FormData as is, without a content type (the browser adds the boundary)', async () => {
    const form = new FormData();
    form.append('a', '1');
    const { api, calls } = client(jsonResponse({ status: 'success', data: null }));
    await api.request('upload', { method: 'POST', body: form });
    expect(calls[0]?.init.body).toBe(form);
    expect(headersOf(calls[0])['Content-Type']).toBeUndefined();
  });

  it('uploads objects with files as multipart, file lists as name[]', () => {
    const one = new File(['a'], 'a.csv', { type: 'text/csv' });
    const two = new File(['b'], 'b.csv', { type: 'text/csv' });
    expect(hasFiles({ file: one })).toBe(true);
    expect(hasFiles({ files: [one, two] })).toBe(true);
    expect(hasFiles({ name: 'x', list: [] })).toBe(false);
    const form = toFormData({ file: one, files: [one, two], note: 'hi', meta: { a: 1 }, skip: null });
    expect((form.get('file') as File).name).toBe('a.csv');
    expect(form.getAll('files[]').map((f) => (f as File).name)).toEqual(['a.csv', 'b.csv']);
    expect(form.get('files')).toBeNull();
    expect(form.get('note')).toBe('hi');
    expect(form.get('meta')).toBe('{"a":1}');
    expect(form.has('skip')).toBe(false);
    const encoded = encodeBody({ file: one });
    expect(encoded.body).toBeInstanceOf(FormData);
    expect(encoded.contentType).toBeNull();
  });

  it('forces multipart for a plain object with upload: true', () => {
    const encoded = encodeBody({ name: 'x' }, true);
    expect(encoded.body).toBeInstanceOf(FormData);
    expect((encoded.body as FormData).get('name')).toBe('x');
  });
});

describe('answers', () => {
  it('returns data from a success envelope', async () => {
    const { api } = client(jsonResponse({ status: 'success', message: 'ok', data: { ip_origin: '1.2.3.4' } }));
    await expect(api.request('firewall/ip')).resolves.toEqual({ ip_origin: '1.2.3.4' });
  });

  it('returns the whole body when there is no data field', async () => {
    const { api } = client(jsonResponse({ rows: [1, 2] }));
    await expect(api.request('x')).resolves.toEqual({ rows: [1, 2] });
    const list = client(jsonResponse([1, 2, 3]));
    await expect(list.api.request('x')).resolves.toEqual([1, 2, 3]);
  });

  it('takes a non-JSON answer as text', async () => {
    const { api } = client(new Response('plain words', { status: 200 }));
    await expect(api.request('x')).resolves.toBe('plain words');
  });

  it("fails a non-JSON answer that is not ok with 'Error {status}: {statusText}'", async () => {
    const { api } = client(new Response('<html>gateway</html>', { status: 502, statusText: 'Bad Gateway' }));
    await expect(api.request('x')).rejects.toThrow('Error 502: Bad Gateway');
  });

  it('takes message as the error of a status error answer, with key, text and HTTP status', async () => {
    const { api } = client(
      jsonResponse({ status: 'error', message: 'auth.invalid_credentials', text: 'Wrong e-mail or password', data: null }, 401, 'Unauthorized'),
    );
    const error = await api.request('login', { body: {} }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(FetchError);
    const fe = error as FetchError;
    expect(fe.key).toBe('auth.invalid_credentials');
    expect(fe.details.text).toBe('Wrong e-mail or password');
    expect(fe.message).toBe('Wrong e-mail or password');
    expect(fe.httpStatus).toBe(401);
  });

  it('takes msg, then errors, as the error of a ko answer (even with HTTP 200)', async () => {
    const a = client(jsonResponse({ status: 'KO', msg: 'Missing data' }));
    await expect(a.api.request('x')).rejects.toThrow('Missing data');
    const b = client(jsonResponse({ status: 'ko', errors: { date: 'Dates are mandatory' } }));
    const error = (await b.api.request('x').catch((e: unknown) => e)) as FetchError;
    expect(error.message).toBe('Dates are mandatory');
    expect(error.details.errors).toEqual({ date: 'Dates are mandatory' });
    const c = client(jsonResponse({ status: 'error', errors: ['one', 'two'] }));
    await expect(c.api.request('x')).rejects.toThrow('one, two');
  });

  it("ignores a message 'ok' or a numeric one", async () => {
    expect(isIgnoredMessage('ok')).toBe(true);
    expect(isIgnoredMessage('OK')).toBe(true);
    expect(isIgnoredMessage(200)).toBe(true);
    expect(isIgnoredMessage('404')).toBe(true);
    expect(isIgnoredMessage('Update sent')).toBe(false);
    const ok = client(jsonResponse({ status: 'success', message: 'ok', data: 1 }));
    await expect(ok.api.requestFull('x')).resolves.toEqual({ data: 1, message: null, status: 'success' });
    const numeric = client(jsonResponse({ status: 'success', message: 12, data: 2 }));
    await expect(numeric.api.requestFull('x')).resolves.toMatchObject({ message: null });
    const said = client(jsonResponse({ status: 'success', message: 'Update sent', data: 3 }));
    await expect(said.api.requestFull('x')).resolves.toMatchObject({ message: 'Update sent' });
    // An error whose message is numeric falls through to msg.
    const err = client(jsonResponse({ status: 'error', message: 500, msg: 'Connection refused' }));
    await expect(err.api.request('x')).rejects.toThrow('Connection refused');
  });

  it('fails a JSON answer that is not ok even without a status field', async () => {
    expect(() =>
      interpretAnswer({ json: true, value: { message: 'error.not_found' } }, { ok: false, status: 404, statusText: 'Not Found' }),
    ).toThrow('error.not_found');
    expect(() => interpretAnswer({ json: true, value: {} }, { ok: false, status: 500, statusText: 'Internal Server Error' })).toThrow(
      'Error 500: Internal Server Error',
    );
  });

  it("rejects an empty url with 'No url recieved'", async () => {
    const { api, calls } = client(jsonResponse({}));
    await expect(api.request('')).rejects.toThrow(NO_URL);
    expect(NO_URL).toBe('No url recieved');
    expect(calls).toHaveLength(0);
  });

  it('reports every error to onError (session expiry handling)', async () => {
    const onError = vi.fn();
    const { api } = client(jsonResponse({ status: 'error', message: 'auth.token_expired', data: null }, 401, 'Unauthorized'), { onError });
    await expect(api.request('admin/menu')).rejects.toThrow();
    expect(onError).toHaveBeenCalledTimes(1);
    expect((onError.mock.calls[0]?.[0] as FetchError).key).toBe('auth.token_expired');
  });

  it('turns a network error into a connection error', async () => {
    const { api } = client(() => Promise.reject(new TypeError('Failed to fetch')));
    const error = (await api.request('x').catch((e: unknown) => e)) as FetchError;
    expect(error).toBeInstanceOf(FetchError);
    expect(error.httpStatus).toBe(0);
    expect(error.key).toBe('common.connection_refused');
  });
});

describe('fetcher status', () => {
  it('goes idle -> fetch -> the server status in lowercase', async () => {
    let release: (r: Response) => void = () => {};
    const { api } = client(() => new Promise<Response>((resolve) => (release = resolve)));
    const fetcher = createFetcher(api);
    const seen: string[] = [];
    fetcher.subscribe(() => seen.push(fetcher.status));
    expect(fetcher.status).toBe('idle');
    const pending = fetcher.run('x');
    expect(fetcher.status).toBe('fetch');
    release(jsonResponse({ status: 'SUCCESS', data: 1 }));
    await pending;
    expect(fetcher.status).toBe('success');
    expect(seen).toEqual(['fetch', 'success']);
  });

  it("refuses a second call while one is in flight with 'Another fetch is still in progress'", async () => {
    let release: (r: Response) => void = () => {};
    const { api, calls } = client(() => new Promise<Response>((resolve) => (release = resolve)));
    const fetcher = createFetcher(api);
    const first = fetcher.run('x');
    await expect(fetcher.run('y')).rejects.toThrow(FETCH_IN_PROGRESS);
    expect(FETCH_IN_PROGRESS).toBe('Another fetch is still in progress');
    expect(calls).toHaveLength(1);
    release(jsonResponse({ status: 'success', data: 1 }));
    await first;
    const third = fetcher.run('z');
    release(jsonResponse({ status: 'success', data: 2 }));
    await expect(third).resolves.toMatchObject({ data: 2 });
    expect(calls).toHaveLength(2);
  });

  it('sets error on an error answer', async () => {
    const { api } = client(jsonResponse({ status: 'error', message: 'common.missing_data' }, 400, 'Bad Request'));
    const fetcher = createFetcher(api);
    await expect(fetcher.run('x')).rejects.toThrow();
    expect(fetcher.status).toBe('error');
    expect(fetcher.error?.key).toBe('common.missing_data');
  });

  it('sets error and aborts the request on a network error', async () => {
    let signal: AbortSignal | undefined;
    const impl = vi.fn(async (_input: RequestInfo | URL, init?: RequestInit) => {
      signal = init?.signal ?? undefined;
      throw new TypeError('Failed to fetch');
    }) as unknown as typeof fetch;
    const fetcher = createFetcher(createFetchClient({ fetchImpl: impl }));
    await expect(fetcher.run('x')).rejects.toThrow('Connection refused');
    expect(fetcher.status).toBe('error');
    expect(signal?.aborted).toBe(true);
  });

  it('sets error for a missing url', async () => {
    const fetcher = createFetcher(createFetchClient({ fetchImpl: vi.fn() as unknown as typeof fetch }));
    await expect(fetcher.run('')).rejects.toThrow(NO_URL);
    expect(fetcher.status).toBe('error');
  });
});
