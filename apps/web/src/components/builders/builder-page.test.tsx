/**
 * The shared builder screen in jsdom (the CodeMirror editor is exercised in the browser by the
 * e2e tests; here a text area stands in for it): the form drives the code, typed code drives the
 * form, the API's standard issues join the list after the pause, unreadable code is said, and
 * saving needs a subject and write access.
 */
import type { BuilderDefinition } from '@backoffice/core/builders/common';
import { QueryClientProvider } from '@tanstack/react-query';
import { App as AntApp, InputNumber } from 'antd';
import { fireEvent, render, screen, waitFor } from '@testing-library/react';
import { createMemoryRouter, RouterProvider } from 'react-router';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { z } from 'zod';
import { createQueryClient } from '../../lib/query.ts';
import { initialSession, useSession } from '../../lib/session-store.ts';
import { BuilderPage } from './builder-page.tsx';
import type { CodeViewProps } from './code-view.tsx';
import { fieldDomId, fieldIssue } from './field-issue.ts';
import type { BuilderFormProps } from './types.ts';

vi.mock('./code-editor.tsx', () => ({
  default: ({ value, onChange, label, testId }: CodeViewProps) => <textarea aria-label={label} value={value} onChange={(e) => onChange?.(e.target.value)} data-testid={testId} />,
}));

const schema = z.strictObject({ code: z.string().min(1), width: z.number().int().min(1) });
type Slot = z.infer<typeof schema>;
const def: BuilderDefinition<Slot> = {
  kind: 'json',
  subjects: ['publisher', 'none'],
  configSchema: schema,
  defaults: () => ({ code: 'home', width: 300 }),
  render: (c) => ({ code: JSON.stringify({ slot: c.code, width: c.width }, null, 2), language: 'json', filename: 'slot.json', mime: 'application/json', issues: [] }),
  parse(code) {
    try {
      const d = JSON.parse(code) as { slot?: unknown; width?: unknown };
      return { config: { code: d.slot, width: d.width } as Slot, issues: [] };
    } catch (err) {
      return { issues: [{ severity: 'error', path: '', text: (err as Error).message, source: 'syntax', line: 1, column: 2 }] };
    }
  },
  examples: () => [
    { name: 'Homepage', config: { code: 'home', width: 300 } },
    { name: 'Leaderboard', config: { code: 'top', width: 728 } },
  ],
};

function SlotForm({ value, onChange, issues }: BuilderFormProps<Slot>) {
  const at = fieldIssue(issues, 'width');
  return (
    <label>
      Width
      <InputNumber id={fieldDomId('width')} value={value.width} onChange={(w) => onChange({ ...value, width: Number(w) })} aria-label="Width" />
      {at.help ? <span role="alert">{at.help}</span> : null}
    </label>
  );
}

const json = (body: unknown, status = 200) => new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });
let fetchMock: ReturnType<typeof vi.fn>;

function signedIn(acl: Record<string, string[]>) {
  useSession.setState({
    ...initialSession(),
    locale: 'en',
    user: { id: 7, mail: 'tech@adtech.example', name: 'Priya', token: 't', roles: [{ id: 5, name: 'TECH' }], acl, exp: Math.floor(Date.now() / 1000) + 3600, picture: null, simulated_by: null },
  });
}

function show() {
  const router = createMemoryRouter([{ path: '/', element: <BuilderPage definition={def} titleKey="menu.jsonbuilder" Form={SlotForm} testId="slot" /> }]);
  return render(
    <QueryClientProvider client={createQueryClient()}>
      <AntApp>
        <RouterProvider router={router} />
      </AntApp>
    </QueryClientProvider>,
  );
}

beforeEach(() => {
  fetchMock = vi.fn(async (url: string, init?: RequestInit) => {
    if (url.includes('/render')) {
      const sent = JSON.parse(String(init?.body)) as { config?: Slot; code?: string };
      const width = sent.config?.width ?? (JSON.parse(sent.code ?? '{}') as { width?: number }).width;
      const issues = width === 301 ? [{ severity: 'error', path: '/width', text: 'width: not an IAB width', source: 'schema', line: 3, column: 3 }] : [];
      return json({ status: 'success', message: 'ok', data: { config: sent.config ?? null, output: null, issues, valid: issues.length === 0 } });
    }
    if (url.includes('/subjects')) return json({ status: 'success', message: 'ok', data: [{ type: 'publisher', id: 4, name: 'Diario Levante Digital' }] });
    if (url.includes('/versions')) return json({ status: 'success', message: 'ok', data: { items: [], total: 0, page: 1, page_size: 20 } });
    return json({ status: 'error', message: 'error.not_found', data: null }, 404);
  });
  vi.stubGlobal('fetch', fetchMock);
});
afterEach(() => {
  vi.unstubAllGlobals();
});

const code = () => screen.findByTestId('slot-code') as Promise<HTMLTextAreaElement>;

describe('BuilderPage', () => {
  it('keeps the form and the code in sync both ways, and adds the API’s standard issues after the pause', async () => {
    signedIn({ '/v1/builders': ['read', 'write'] });
    show();
    expect((await code()).value).toContain('"width": 300');
    fireEvent.change(screen.getByLabelText('Width'), { target: { value: '301' } });
    await waitFor(async () => expect((await code()).value).toContain('"width": 301'));
    // The standard's issue arrives from the API, with its line.
    expect(await screen.findByText('width: not an IAB width', {}, { timeout: 3000 })).toBeTruthy();
    expect(screen.getByTestId('slot-status').dataset.state).toBe('errors');
    expect(screen.getByText(/Line 3, column 3/)).toBeTruthy();
    const sent = fetchMock.mock.calls.filter(([u]) => String(u).includes('/v1/builders/json/render')).map(([, i]) => JSON.parse(String((i as RequestInit).body)));
    expect(sent).toContainEqual({ config: { code: 'home', width: 301 } });

    // Typed code moves the form, and the text stays as typed.
    const typed = '{ "slot": "top", "width": 728 }';
    fireEvent.change(await code(), { target: { value: typed } });
    await waitFor(() => expect((screen.getByLabelText('Width') as HTMLInputElement).value).toBe('728'));
    expect((await code()).value).toBe(typed);
    await waitFor(() => expect(screen.getByTestId('slot-status').dataset.state).toBe('valid'), { timeout: 3000 });

    // Unreadable code keeps the form and says so.
    fireEvent.change(await code(), { target: { value: '{ "slot": ' } });
    expect(await screen.findByText(/cannot be read/)).toBeTruthy();
    expect((screen.getByLabelText('Width') as HTMLInputElement).value).toBe('728');
    expect(screen.getByTestId('slot-issue').dataset.source).toBe('syntax');
  });

  it('saves only with write access, and only once a subject is chosen', async () => {
    signedIn({ '/v1/builders': ['read'] });
    const { unmount } = show();
    expect(await screen.findByTestId('slot-read-only')).toBeTruthy();
    expect(screen.queryByTestId('slot-save')).toBeNull();
    unmount();

    signedIn({ '/v1/builders': ['read', 'write'] });
    show();
    const save = (await screen.findByTestId('slot-save')) as HTMLButtonElement;
    expect(save.disabled).toBe(true);
    // "No subject" is allowed by this builder: choosing it enables saving.
    fireEvent.mouseDown(screen.getByLabelText('Subject type').closest('.ant-select-selector') ?? screen.getByLabelText('Subject type'));
    fireEvent.click(await screen.findByTitle('No subject'));
    await waitFor(() => expect((screen.getByTestId('slot-save') as HTMLButtonElement).disabled).toBe(false));
  });
});
