/**
 * A person's signature editor in jsdom: prefilled, the live preview follows typing (escaped), a
 * phone without country code is refused next to the field and nothing is sent, Save sends the
 * checked fields (E.164) with the version read, Copy puts the API's HTML on the clipboard as
 * text/html and text/plain, a 409 opens the conflict dialog.
 */
import type { PersonSignature, SignatureTemplate } from '@backoffice/core/signatures';
import { QueryClientProvider } from '@tanstack/react-query';
import { fireEvent, render, screen, waitFor } from '@testing-library/react';
import { App as AntApp } from 'antd';
import { createMemoryRouter, RouterProvider } from 'react-router';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { createQueryClient } from '../../lib/query.ts';
import { initialSession, useSession } from '../../lib/session-store.ts';
import { SignatureEditor } from './signature-editor.tsx';

const template: SignatureTemplate = {
  id: 3,
  name: 'Adtech Media',
  is_default: true,
  company_name: 'Adtech Media Iberia, S.L.',
  address: 'Calle de Alcalá 21',
  website: 'https://www.adtech.example',
  legal_en: 'Confidential.',
  legal_es: 'Confidencial.',
  social: [],
  text_color: '#333333',
  accent_color: '#1a4f8b',
  logo_width: 120,
  logo_path: null,
  logo_size: null,
  version: 1,
  updated_at: '2026-11-01T10:00:00.000Z',
  updated_by: { id: 1, name: 'Carmen Ortega' },
};

const initial: PersonSignature = {
  user_id: 9,
  template_id: null,
  language: 'en',
  name: 'Lucía Fernández',
  title: '',
  department: '',
  phones: [],
  mail: 'demand.lead@adtech.example',
  version: 0,
  updated_at: null,
  updated_by: null,
};

const json = (body: unknown, status = 200) => new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });
let fetchMock: ReturnType<typeof vi.fn>;
let clipboardWrite: ReturnType<typeof vi.fn>;

class FakeClipboardItem {
  constructor(readonly items: Record<string, Blob>) {}
}

function show() {
  const router = createMemoryRouter([{ path: '/', element: <SignatureEditor source={{ kind: 'me' }} initial={initial} templates={[template]} /> }]);
  return render(
    <QueryClientProvider client={createQueryClient()}>
      <AntApp>
        <RouterProvider router={router} />
      </AntApp>
    </QueryClientProvider>,
  );
}

beforeEach(() => {
  useSession.setState({
    ...initialSession(),
    locale: 'en',
    user: { id: 9, mail: 'demand.lead@adtech.example', name: 'Lucía Fernández', token: 't', roles: [], acl: { '/v1/signatures': ['read'] }, exp: Math.floor(Date.now() / 1000) + 3600, picture: null, simulated_by: null },
  });
  fetchMock = vi.fn(async (url: string, init?: RequestInit) => {
    if (url.endsWith('/v1/signatures/render')) return json({ status: 'success', message: 'ok', data: { html: '<table><tr><td>API</td></tr></table>', text: '-- \nAPI', dark_html: '', template_id: 3, issues: [] } });
    if (url.endsWith('/v1/signatures/me') && init?.method === 'PUT') {
      const sent = JSON.parse(String(init.body)) as PersonSignature;
      if (sent.title === 'Conflict') {
        return json({ status: 'error', message: 'resource.conflict', data: { current: { ...initial, title: 'Theirs', version: 2, updated_at: '2026-11-26T09:00:00.000Z', updated_by: { id: 1, name: 'Carmen Ortega' } } } }, 409);
      }
      return json({ status: 'success', message: 'signatures.saved', data: { signature: { ...initial, ...sent, version: 1, updated_at: '2026-11-26T10:00:00.000Z', updated_by: { id: 9, name: 'Lucía Fernández' } }, render: {} } });
    }
    return json({ status: 'error', message: 'error.not_found', data: null }, 404);
  });
  vi.stubGlobal('fetch', fetchMock);
  clipboardWrite = vi.fn(async () => undefined);
  vi.stubGlobal('ClipboardItem', FakeClipboardItem);
  Object.defineProperty(navigator, 'clipboard', { configurable: true, value: { write: clipboardWrite, writeText: vi.fn(async () => undefined) } });
});
afterEach(() => {
  vi.unstubAllGlobals();
});

describe('SignatureEditor', () => {
  it('previews what is typed (escaped), refuses a phone without country code, saves E.164 with the version read', async () => {
    show();
    const light = await screen.findByTestId('signature-preview-light');
    expect(light.textContent).toContain('Lucía Fernández');
    expect(light.textContent).toContain('Adtech Media Iberia, S.L.');
    expect(screen.getByTestId('signature-saved-state').textContent).toContain('Not saved yet');

    fireEvent.change(screen.getByTestId('signature-title'), { target: { value: '<b>Head</b> of "Demand"' } });
    await waitFor(() => expect(light.textContent).toContain('<b>Head</b> of "Demand"'));
    expect(light.querySelector('b')).toBeNull();

    fireEvent.click(screen.getByTestId('signature-phone-add'));
    const phone = screen.getByTestId('signature-phone-0');
    fireEvent.change(phone, { target: { value: '612 34 56 78' } });
    fireEvent.blur(phone);
    expect((await screen.findByTestId('signature-phone-0-error')).textContent).toBe('Write the number in international form, with the country code (+34…).');
    fireEvent.click(screen.getByTestId('signature-save'));
    expect(fetchMock).not.toHaveBeenCalled();

    fireEvent.change(phone, { target: { value: '+34 612 34 56 78' } });
    await waitFor(() => expect(light.textContent).toContain('+34 612 34 56 78'));
    fireEvent.click(screen.getByTestId('signature-save'));
    await waitFor(() => expect(screen.getByTestId('signature-saved-state').textContent).toContain('by Lucía Fernández'));
    const [, init] = fetchMock.mock.calls.find(([u]) => String(u).endsWith('/v1/signatures/me'))!;
    expect(JSON.parse(String((init as RequestInit).body))).toEqual({
      template_id: null,
      language: 'en',
      name: 'Lucía Fernández',
      title: '<b>Head</b> of "Demand"',
      department: '',
      phones: [{ kind: 'mobile', number: '+34612345678' }],
      mail: 'demand.lead@adtech.example',
      version: 0,
    });
  });

  it('copies the API’s rendering as text/html and text/plain', async () => {
    show();
    fireEvent.click(await screen.findByTestId('signature-copy'));
    await waitFor(() => expect(clipboardWrite).toHaveBeenCalledTimes(1));
    const [items] = clipboardWrite.mock.calls[0] as [FakeClipboardItem[]];
    const parts = items[0]!.items;
    expect(Object.keys(parts).sort()).toEqual(['text/html', 'text/plain']);
    expect(await parts['text/html']!.text()).toBe('<table><tr><td>API</td></tr></table>');
    expect(await parts['text/plain']!.text()).toBe('-- \nAPI');
    const sent = JSON.parse(String((fetchMock.mock.calls[0]![1] as RequestInit).body)) as Record<string, unknown>;
    expect(sent).not.toHaveProperty('version');
  });

  it('a save over someone else’s change opens the conflict dialog; loading theirs replaces the form', async () => {
    show();
    fireEvent.change(await screen.findByTestId('signature-title'), { target: { value: 'Conflict' } });
    fireEvent.click(screen.getByTestId('signature-save'));
    expect((await screen.findByTestId('signature-conflict')).textContent).toContain('Carmen Ortega');
    fireEvent.click(screen.getByTestId('signature-conflict-reload'));
    await waitFor(() => expect((screen.getByTestId('signature-title') as HTMLInputElement).value).toBe('Theirs'));
  });
});
