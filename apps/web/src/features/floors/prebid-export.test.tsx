import type { Acl } from '@backoffice/core/acl';
import { QueryClientProvider } from '@tanstack/react-query';
import { fireEvent, render, screen, waitFor } from '@testing-library/react';
import { App } from 'antd';
import type { ComponentProps } from 'react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { createQueryClient } from '../../lib/query.ts';
import { initialSession, useSession } from '../../lib/session-store.ts';
import { WrapperFeed } from './prebid-export.tsx';

const json = (body: unknown, status = 200) =>
  new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });

const TOKEN = `bofl_${'k'.repeat(39)}Zq9w`;
interface Feed {
  token_hint: string;
  created_at: string;
  created_by: { id: number; name: string } | null;
  rotated_at: string | null;
  last_used_at: string | null;
}
const FEED: Feed = {
  token_hint: 'Ab3x',
  created_at: '2026-03-01T10:00:00.000Z',
  created_by: { id: 3, name: 'Ana Ruiz' },
  rotated_at: null,
  last_used_at: null,
};
const REPORT = {
  publisher: { id: 42, name: 'News Media' },
  report: {
    currency: 'USD',
    fields: ['domain', 'size'],
    currencies: [
      { currency: 'USD', rules: 3 },
      { currency: 'EUR', rules: 1 },
    ],
  },
  preview: '',
  preview_lines: 0,
  lines: 0,
  default: 0.25,
  path: '/v1/floors/prebid/42',
} as unknown as ComponentProps<typeof WrapperFeed>['data'];

let fetchMock: ReturnType<typeof vi.fn>;
/** The feed's routes: GET answers `state`, POST and DELETE change it. */
function serve(initial: Feed | null) {
  let state = initial;
  fetchMock = vi.fn(async (url: string, init?: RequestInit) => {
    const u = new URL(url, 'http://localhost');
    if (u.pathname !== '/v1/floors/prebid/42/feed')
      return json({ status: 'error', message: 'error.not_found', data: null }, 404);
    const method = init?.method ?? 'GET';
    if (method === 'POST') {
      state = { ...FEED, token_hint: TOKEN.slice(-4), rotated_at: state ? '2026-03-02T10:00:00.000Z' : null };
      const path = `/v1/public/floors/${TOKEN}.json`;
      return json(
        {
          status: 'success',
          message: 'floors.prebid.feed.created',
          data: { token: TOKEN, path, url: `http://api${path}`, feed: state },
        },
        201,
      );
    }
    if (method === 'DELETE') {
      state = null;
      return json({ status: 'success', message: 'floors.prebid.feed.revoked', data: { feed: null } });
    }
    return json({
      status: 'success',
      message: 'ok',
      data: { publisher: { id: 42, name: 'News Media' }, feed: state },
    });
  });
  vi.stubGlobal('fetch', fetchMock);
}

function signIn(acl: Acl) {
  useSession.setState({
    ...initialSession(),
    locale: 'en',
    user: {
      id: 7,
      mail: 'yield@adtech.example',
      name: 'Yara Yield',
      token: 't',
      roles: [{ id: 9, name: 'YIELD' }],
      acl,
      exp: Math.floor(Date.now() / 1000) + 3600,
      picture: null,
      simulated_by: null,
    },
  });
}

beforeEach(() => useSession.setState({ ...initialSession(), locale: 'en' }));
afterEach(() => vi.unstubAllGlobals());

function show(currency = '') {
  render(
    <QueryClientProvider client={createQueryClient()}>
      <App>
        <WrapperFeed publisher={42} currency={currency} data={REPORT} />
      </App>
    </QueryClientProvider>,
  );
}

const calls = (method: string) =>
  fetchMock.mock.calls.filter((c) => ((c[1] as RequestInit | undefined)?.method ?? 'GET') === method);

describe('the wrapper feed of the Prebid export', () => {
  it('shows a reader the state, without create, rotate or revoke', async () => {
    signIn({ '/v1/floors': ['read'] });
    serve(FEED);
    show();
    await waitFor(() =>
      expect(screen.getByTestId('floors-prebid-feed-state').textContent).toContain(
        'Token …Ab3x, created by Ana Ruiz',
      ),
    );
    expect(screen.getByTestId('floors-prebid-feed-state').textContent).toContain('Not read by a wrapper yet');
    expect(screen.queryByTestId('floors-prebid-feed-rotate')).toBeNull();
    expect(screen.queryByTestId('floors-prebid-feed-revoke')).toBeNull();
    expect(screen.queryByTestId('floors-prebid-feed-create')).toBeNull();
  });

  it('creates a feed for a writer and shows its URL once, with the Prebid configuration', async () => {
    signIn({ '/v1/floors': ['read', 'write'] });
    serve(null);
    show('EUR');
    fireEvent.click(await screen.findByTestId('floors-prebid-feed-create'));
    const url = await screen.findByTestId('floors-prebid-feed-url');
    expect(url.textContent).toBe(`${window.location.origin}/v1/public/floors/${TOKEN}.json?currency=EUR`);
    expect(JSON.parse(String((calls('POST')[0]![1] as RequestInit).body))).toEqual({ replaces: null });
    const snippet = screen.getByTestId('floors-prebid-feed-snippet').textContent ?? '';
    expect(snippet).toContain('pbjs.setConfig(');
    expect(snippet).toContain(`"url": "${url.textContent}"`);
    expect(snippet).toContain('"*|*": 0.25');
    await waitFor(() =>
      expect(screen.getByTestId('floors-prebid-feed-state').textContent).toContain('Token …Zq9w'),
    );
    // Done: the URL is not shown again, only the hint.
    fireEvent.click(screen.getByTestId('floors-prebid-feed-done'));
    expect(screen.queryByTestId('floors-prebid-feed-url')).toBeNull();
    expect(document.body.textContent).not.toContain(TOKEN);
  });

  it('leaves a currency no rule uses out of the URL, and says so', async () => {
    signIn({ '/v1/floors': ['read', 'write'] });
    serve(null);
    show('GBP');
    fireEvent.click(await screen.findByTestId('floors-prebid-feed-create'));
    const url = await screen.findByTestId('floors-prebid-feed-url');
    expect(url.textContent).toBe(`${window.location.origin}/v1/public/floors/${TOKEN}.json`);
    expect(screen.getByTestId('floors-prebid-feed-currency-note').textContent).toContain(
      'No rule of this publisher is in GBP',
    );
    // No catch-all floor of the served currency is known here: no data in the configuration.
    expect(screen.getByTestId('floors-prebid-feed-snippet').textContent).not.toContain('"data"');
  });

  it('rotates after a confirmation that says the old URL stops at once, and revokes', async () => {
    signIn({ '/v1/floors': ['read', 'write'] });
    serve(FEED);
    show();
    fireEvent.click(await screen.findByTestId('floors-prebid-feed-rotate'));
    expect(await screen.findByText(/the old one stops working at once/)).toBeTruthy();
    expect(calls('POST')).toHaveLength(0);
    fireEvent.click(document.getElementById('floors-prebid-feed-rotate-confirm')!);
    await screen.findByTestId('floors-prebid-feed-url');
    expect(JSON.parse(String((calls('POST')[0]![1] as RequestInit).body))).toEqual({ replaces: 'Ab3x' });

    fireEvent.click(screen.getByTestId('floors-prebid-feed-revoke'));
    fireEvent.click(await waitFor(() => document.getElementById('floors-prebid-feed-revoke-confirm')!));
    await waitFor(() =>
      expect(screen.getByTestId('floors-prebid-feed-state').textContent).toBe(
        'This publisher has no wrapper feed',
      ),
    );
    expect(calls('DELETE')).toHaveLength(1);
    expect(screen.queryByTestId('floors-prebid-feed-url')).toBeNull();
  });
});
