/**
 * The template editor in jsdom: it shows the current version's texts, marks an unknown placeholder
 * as it is typed (with its line) and keeps Save off until the text is right and a comment is
 * given, sends the version it started from, and keeps what was typed when it is unmounted (the
 * detail page's tabs) until it is saved.
 */
import type { TemplateVersionDto } from '@backoffice/core/legal';
import { QueryClientProvider } from '@tanstack/react-query';
import { fireEvent, render, screen, waitFor } from '@testing-library/react';
import { App as AntApp } from 'antd';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { createQueryClient } from '../../lib/query.ts';
import { initialSession, useSession } from '../../lib/session-store.ts';
import { useDrafts } from './drafts.ts';
import { TemplateEditor } from './template-editor.tsx';

const v2: TemplateVersionDto = {
  id: 12,
  template_id: 5,
  number: 2,
  title_en: 'Mutual NDA',
  title_es: 'Acuerdo de confidencialidad',
  body_en: 'Between {{our.legal_name}} and {{counterparty.legal_name}}.\n\n## Term\nTwo years.',
  body_es: 'Entre {{our.legal_name}} y {{counterparty.legal_name}}.',
  comment: 'Two years',
  restored_from: null,
  author: { id: 3, name: 'Inés Robles' },
  created_at: '2026-11-20T10:00:00.000Z',
  placeholders: ['our.legal_name', 'counterparty.legal_name'],
};

const json = (body: unknown, status = 200) =>
  new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });
let fetchMock: ReturnType<typeof vi.fn>;

beforeEach(() => {
  useSession.setState({
    ...initialSession(),
    locale: 'en',
    user: {
      id: 3,
      mail: 'legal@adtech.example',
      name: 'Inés',
      token: 't',
      roles: [{ id: 9, name: 'LEGAL' }],
      acl: { '/v1/legal': ['*'] },
      exp: Math.floor(Date.now() / 1000) + 3600,
      picture: null,
      simulated_by: null,
    },
  });
  useDrafts.getState().clear();
  fetchMock = vi.fn(async (url: string, init?: RequestInit) => {
    if (url.endsWith('/v1/legal/templates/5/versions/2'))
      return json({ status: 'success', message: 'ok', data: v2 });
    if (url.endsWith('/v1/legal/templates/5/versions') && (init?.method ?? 'GET') === 'GET')
      return json({ status: 'success', message: 'ok', data: [{ ...v2, body_en: undefined }] });
    if (url.endsWith('/v1/legal/templates/5/versions') && init?.method === 'POST') {
      const sent = JSON.parse(String(init.body)) as TemplateVersionDto;
      return json(
        { status: 'success', message: 'legal.version_saved', data: { ...v2, ...sent, id: 13, number: 3 } },
        201,
      );
    }
    return json({ status: 'success', message: 'ok', data: { items: [], total: 0, page: 1, page_size: 25 } });
  });
  vi.stubGlobal('fetch', fetchMock);
});
afterEach(() => {
  vi.unstubAllGlobals();
});

function show() {
  return render(
    <QueryClientProvider client={createQueryClient()}>
      <AntApp>
        <TemplateEditor templateId={5} currentVersion={2} />
      </AntApp>
    </QueryClientProvider>,
  );
}

const bodyEn = () => screen.findByTestId('legal-body_en') as Promise<HTMLTextAreaElement>;

describe('TemplateEditor', () => {
  it('marks an unknown placeholder as it is typed and saves a fixed text with its comment and base version', async () => {
    const view = show();
    expect((await bodyEn()).value).toBe(v2.body_en);
    const save = screen.getByTestId('legal-save-version') as HTMLButtonElement;
    expect(save.disabled).toBe(true);

    fireEvent.change(await bodyEn(), { target: { value: `${v2.body_en}\nVAT {{counterparty.vat}}` } });
    expect(await screen.findByText(/line 5: Unknown placeholder counterparty\.vat/)).toBeTruthy();
    expect(save.disabled).toBe(true);

    // What was typed survives the tab being closed and opened again.
    view.unmount();
    show();
    expect((await bodyEn()).value).toContain('{{counterparty.vat}}');

    fireEvent.change(await bodyEn(), { target: { value: `${v2.body_en}\nVAT {{counterparty.tax_id}}` } });
    await waitFor(() => expect(screen.queryByTestId('legal-issues')).toBeNull());
    const saveAgain = screen.getByTestId('legal-save-version') as HTMLButtonElement;
    expect(saveAgain.disabled).toBe(false);
    fireEvent.click(saveAgain);
    expect(await screen.findByText('Say what changed in this version')).toBeTruthy();
    expect(fetchMock.mock.calls.some(([, i]) => (i as RequestInit | undefined)?.method === 'POST')).toBe(
      false,
    );

    fireEvent.change(screen.getByTestId('legal-comment'), { target: { value: 'VAT line added' } });
    fireEvent.click(saveAgain);
    await waitFor(() =>
      expect(fetchMock.mock.calls.some(([, i]) => (i as RequestInit | undefined)?.method === 'POST')).toBe(
        true,
      ),
    );
    const [, init] = fetchMock.mock.calls.find(([, i]) => (i as RequestInit | undefined)?.method === 'POST')!;
    expect(JSON.parse(String((init as RequestInit).body))).toEqual({
      title_en: v2.title_en,
      title_es: v2.title_es,
      body_en: `${v2.body_en}\nVAT {{counterparty.tax_id}}`,
      body_es: v2.body_es,
      comment: 'VAT line added',
      base_version: 2,
    });
    await waitFor(() => expect(useDrafts.getState().drafts[5]).toBeUndefined());
  });
});
