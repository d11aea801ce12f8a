/**
 * The resources manager's dialogs in jsdom: each checks what it can before saving, closes once the
 * save went through, and on a refusal keeps what was typed and shows the server's field errors at
 * their fields (rename, folder) or its message above the buttons (move, and any error without
 * fields); OK spins while the save runs.
 */
import type { ResourceFileRow, ResourceFolder } from '@backoffice/core/files';
import { render, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import { FetchError } from '../../lib/fetch-client.ts';
import { FolderModal, MoveFilesModal, NO_FOLDER, RenameFileModal } from './file-dialogs.tsx';

const file = { id: 5, name: 'report.pdf', mime: 'application/pdf' } as ResourceFileRow;
const folders = [
  { id: 1, name: 'Docs', parent_id: null },
  { id: 2, name: 'Invoices', parent_id: 1 },
] as ResourceFolder[];

const refused = (errors: Record<string, string> | null, message = 'Refused') =>
  new FetchError(message, { httpStatus: errors ? 400 : 500, errors });

/** A save the test ends when it likes. */
function pendingSave() {
  let settle: { resolve: () => void; reject: (e: unknown) => void } = { resolve: () => {}, reject: () => {} };
  const promise = new Promise<void>((resolve, reject) => (settle = { resolve, reject }));
  return { save: vi.fn(() => promise), settle: () => settle };
}

describe('RenameFileModal', () => {
  it('refuses an empty name, a name without extension and a changed extension before saving', async () => {
    const user = userEvent.setup();
    const onSave = vi.fn(() => Promise.resolve());
    render(<RenameFileModal file={file} onClose={vi.fn()} onSave={onSave} />);
    const input = screen.getByTestId('files-rename-input');
    await user.clear(input);
    await user.click(screen.getByTestId('files-rename-ok'));
    expect(await screen.findByText('This field is required')).toBeTruthy();
    await user.type(input, 'report');
    await user.click(screen.getByTestId('files-rename-ok'));
    expect(await screen.findByText('The file needs a name with an extension')).toBeTruthy();
    await user.type(input, '.txt');
    await user.click(screen.getByTestId('files-rename-ok'));
    expect(await screen.findByText(/Keep the file’s extension/)).toBeTruthy();
    expect(onSave).not.toHaveBeenCalled();
  });

  it('saves the cleaned name on Enter, spinning meanwhile, and closes', async () => {
    const user = userEvent.setup();
    const onClose = vi.fn();
    const { save, settle } = pendingSave();
    render(<RenameFileModal file={file} onClose={onClose} onSave={save} />);
    const input = screen.getByTestId('files-rename-input');
    await user.clear(input);
    await user.type(input, 'summary.pdf{Enter}');
    expect(save).toHaveBeenCalledWith('summary.pdf');
    await waitFor(() => expect(screen.getByTestId('files-rename-ok').className).toMatch(/loading/));
    expect(onClose).not.toHaveBeenCalled();
    settle().resolve();
    await waitFor(() => expect(onClose).toHaveBeenCalledTimes(1));
  });

  it('shows the server’s error at the name, or its message when it names no field, and stays open', async () => {
    const user = userEvent.setup();
    const onClose = vi.fn();
    const onSave = vi
      .fn<(name: string) => Promise<void>>()
      .mockRejectedValueOnce(refused({ name: 'files.upload.name_invalid' }))
      .mockRejectedValueOnce(refused(null, 'Someone else renamed it'));
    render(<RenameFileModal file={file} onClose={onClose} onSave={onSave} />);
    await user.click(screen.getByTestId('files-rename-ok'));
    expect(await screen.findByText('The file needs a name with an extension')).toBeTruthy();
    expect(screen.queryByRole('alert')).toBeNull();
    await user.click(screen.getByTestId('files-rename-ok'));
    expect((await screen.findByRole('alert')).textContent).toContain('Someone else renamed it');
    expect(screen.queryByText('The file needs a name with an extension')).toBeNull();
    expect((screen.getByTestId('files-rename-input') as HTMLInputElement).value).toBe('report.pdf');
    expect(onClose).not.toHaveBeenCalled();
  });
});

describe('MoveFilesModal', () => {
  it('moves to the chosen folder (none: null) and closes', async () => {
    const user = userEvent.setup();
    const onMove = vi.fn(() => Promise.resolve());
    const onClose = vi.fn();
    const { rerender } = render(
      <MoveFilesModal count={2} folders={folders} open initial={2} onClose={onClose} onMove={onMove} />,
    );
    expect(screen.getByText('Move 2 file(s)')).toBeTruthy();
    await user.click(screen.getByTestId('files-move-ok'));
    expect(onMove).toHaveBeenLastCalledWith(2);
    await waitFor(() => expect(onClose).toHaveBeenCalledTimes(1));
    rerender(
      <MoveFilesModal
        count={2}
        folders={folders}
        open
        initial={NO_FOLDER}
        onClose={onClose}
        onMove={onMove}
      />,
    );
    await user.click(screen.getByTestId('files-move-ok'));
    expect(onMove).toHaveBeenLastCalledWith(null);
  });

  it('shows any refusal as a message (it has no field to show one at) and stays open', async () => {
    const user = userEvent.setup();
    const onClose = vi.fn();
    const onMove = vi.fn(() =>
      Promise.reject(refused({ folder_id: 'error.invalid_value' }, 'No such folder')),
    );
    render(<MoveFilesModal count={1} folders={folders} open initial={1} onClose={onClose} onMove={onMove} />);
    await user.click(screen.getByTestId('files-move-ok'));
    expect((await screen.findByRole('alert')).textContent).toContain('No such folder');
    expect(onClose).not.toHaveBeenCalled();
  });
});

describe('FolderModal', () => {
  it('asks for a name, then saves the name and parent and closes', async () => {
    const user = userEvent.setup();
    const onSave = vi.fn(() => Promise.resolve());
    const onClose = vi.fn();
    render(
      <FolderModal
        dialog={{ folder: null, parentId: 1 }}
        folders={folders}
        onClose={onClose}
        onSave={onSave}
      />,
    );
    expect(screen.getByText('New folder')).toBeTruthy();
    await user.click(screen.getByTestId('files-folder-ok'));
    expect(await screen.findByText('This field is required')).toBeTruthy();
    expect(onSave).not.toHaveBeenCalled();
    await user.type(screen.getByTestId('files-folder-name'), 'Contracts');
    await user.click(screen.getByTestId('files-folder-ok'));
    expect(onSave).toHaveBeenCalledWith('Contracts', 1);
    await waitFor(() => expect(onClose).toHaveBeenCalledTimes(1));
  });

  it('shows the server’s errors at their fields, or its message, and stays open', async () => {
    const user = userEvent.setup();
    const onClose = vi.fn();
    const onSave = vi
      .fn<(name: string, parentId: number | null) => Promise<void>>()
      .mockRejectedValueOnce(refused({ parent_id: 'error.required' }))
      .mockRejectedValueOnce(refused(null, 'Server down'));
    render(
      <FolderModal
        dialog={{ folder: folders[1]!, parentId: 1 }}
        folders={folders}
        onClose={onClose}
        onSave={onSave}
      />,
    );
    expect(screen.getByText('Rename folder')).toBeTruthy();
    await user.click(screen.getByTestId('files-folder-ok'));
    expect(onSave).toHaveBeenCalledWith('Invoices', 1);
    expect(await screen.findByText('This field is required')).toBeTruthy();
    expect(screen.queryByRole('alert')).toBeNull();
    await user.click(screen.getByTestId('files-folder-ok'));
    expect((await screen.findByRole('alert')).textContent).toContain('Server down');
    expect(screen.queryByText('This field is required')).toBeNull();
    expect(onClose).not.toHaveBeenCalled();
  });
});
