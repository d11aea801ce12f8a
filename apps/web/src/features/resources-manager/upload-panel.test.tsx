import type { ResourceFolder } from '@backoffice/core/files';
import { render, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { App } from 'antd';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { folderTree } from './files-api.ts';
import { nextToStart, UploadPanel, type UploadItem } from './upload-panel.tsx';

const fileInput = () => document.querySelector<HTMLInputElement>('input[type="file"]')!;

/** A stand-in XMLHttpRequest: records what is sent, answers when the test says. */
class FakeXhr {
  static sent: FakeXhr[] = [];
  upload = {
    onprogress: null as ((e: { lengthComputable: boolean; loaded: number; total: number }) => void) | null,
  };
  onload: (() => void) | null = null;
  onerror: (() => void) | null = null;
  onabort: (() => void) | null = null;
  status = 0;
  response: unknown = null;
  responseType = '';
  url = '';
  headers: Record<string, string> = {};
  body: FormData | null = null;
  open(_method: string, url: string) {
    this.url = url;
  }
  setRequestHeader(k: string, v: string) {
    this.headers[k] = v;
  }
  send(body: FormData) {
    this.body = body;
    FakeXhr.sent.push(this);
  }
  abort() {
    this.onabort?.();
  }
  answer(status: number, response: unknown) {
    this.status = status;
    this.response = response;
    this.onload?.();
  }
}

describe('UploadPanel', () => {
  const original = globalThis.XMLHttpRequest;
  beforeEach(() => {
    FakeXhr.sent = [];
    globalThis.XMLHttpRequest = FakeXhr as unknown as typeof XMLHttpRequest;
  });
  afterEach(() => {
    globalThis.XMLHttpRequest = original;
  });

  it('refuses an extension we do not take before sending, and sends the others as files[] one per request, with progress and the server’s reason', async () => {
    const user = userEvent.setup({ applyAccept: false });
    const onUploaded = vi.fn();
    render(
      <App>
        <UploadPanel folderId={7} folderName="Media kits" maxBytes={1024 * 1024} onUploaded={onUploaded} />
      </App>,
    );
    expect(document.body.textContent).toContain('Into: Media kits');
    await user.upload(fileInput(), [
      new File(['MZ'], 'setup.exe', { type: 'application/x-msdownload' }),
      new File(['png bytes'], 'banner.png', { type: 'image/png' }),
      new File(['not really a pdf'], 'terms.pdf', { type: 'application/pdf' }),
    ]);
    await waitFor(() => expect(screen.getByText('Files of type .exe are not accepted')).toBeTruthy());
    await waitFor(() => expect(FakeXhr.sent).toHaveLength(2));
    const [first, second] = FakeXhr.sent as [FakeXhr, FakeXhr];
    expect(first.url).toBe('/v1/resources-manager/files');
    expect((first.body!.get('files[]') as File).name).toBe('banner.png');
    expect(first.body!.get('folder_id')).toBe('7');
    first.upload.onprogress?.({ lengthComputable: true, loaded: 50, total: 100 });
    await waitFor(() =>
      expect(screen.getByRole('progressbar', { name: 'banner.png' }).getAttribute('aria-valuenow')).toBe(
        '50',
      ),
    );
    first.answer(201, {
      status: 'success',
      message: 'files.upload.done_one',
      data: { files: [{ id: 1, name: 'banner.png' }] },
    });
    second.answer(415, { status: 'error', message: 'files.upload.type_unknown', params: { ext: 'pdf' } });
    await waitFor(() =>
      expect(screen.getByText('The content of this .pdf file is not a type we accept')).toBeTruthy(),
    );
    expect(onUploaded).toHaveBeenCalledTimes(1);
    const states = [...document.querySelectorAll('[data-testid="files-upload-item"]')].map((e) =>
      e.getAttribute('data-status'),
    );
    expect(states).toEqual(['error', 'done', 'error']);
  });
});

describe('nextToStart and folderTree', () => {
  const item = (uid: string, status: UploadItem['status']): UploadItem => ({
    uid,
    status,
    file: new File(['x'], `${uid}.png`),
    percent: 0,
    error: null,
    folderId: null,
  });
  it('starts waiting uploads in order, at most two at once', () => {
    expect(
      nextToStart([item('a', 'waiting'), item('b', 'waiting'), item('c', 'waiting')]).map((i) => i.uid),
    ).toEqual(['a', 'b']);
    expect(
      nextToStart([
        item('a', 'uploading'),
        item('b', 'done'),
        item('c', 'waiting'),
        item('d', 'waiting'),
      ]).map((i) => i.uid),
    ).toEqual(['c']);
    expect(nextToStart([item('a', 'uploading'), item('b', 'uploading'), item('c', 'waiting')])).toEqual([]);
  });
  it('builds the folder tree with children sorted by name', () => {
    const f = (id: number, name: string, parent_id: number | null, files = 0): ResourceFolder => ({
      id,
      name,
      parent_id,
      files,
      version: 1,
      created_at: '',
      updated_at: '',
    });
    const tree = folderTree([
      f(1, 'Media kits', null, 2),
      f(2, 'Brand', null),
      f(3, 'Logos', 2, 4),
      f(4, 'Banners', 2),
    ]);
    expect(tree.map((n) => n.title)).toEqual(['Brand', 'Media kits']);
    expect(tree[0]!.children.map((n) => [n.title, n.files])).toEqual([
      ['Banners', 0],
      ['Logos', 4],
    ]);
  });
});
