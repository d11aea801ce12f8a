/**
 * The dialogs of the resources manager: rename a file (its version travels: someone else's change
 * meanwhile answers 409, explained), move files into a folder, and create or rename a folder. Each
 * form keeps what was typed on an error and shows the server's field errors beside the field.
 */
import {
  fileExtension,
  renameProblem,
  sanitizeFileName,
  type ResourceFileRow,
  type ResourceFolder,
} from '@backoffice/core/files';
import { Alert, Form, Input, Modal, TreeSelect } from 'antd';
import { useCallback, useEffect, useMemo, useState, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { errorText } from '../../lib/api.ts';
import { FetchError } from '../../lib/fetch-client.ts';
import { folderTree, type FolderNode } from './files-api.ts';

/** The value the folder pickers use for "no folder" / "top level" (antd's TreeSelect wants a value). */
export const NO_FOLDER = 0;

function fieldErrorsOf(
  error: unknown,
  t: (k: string) => string,
): { fields: Record<string, string>; general: string | null } {
  if (error instanceof FetchError && error.details.errors && Object.keys(error.details.errors).length > 0) {
    return {
      fields: Object.fromEntries(Object.entries(error.details.errors).map(([k, v]) => [k, t(v)])),
      general: null,
    };
  }
  return { fields: {}, general: errorText(error) };
}

function FolderPicker({
  folders,
  value,
  onChange,
  topLabel,
  exclude,
  id,
}: {
  folders: ResourceFolder[];
  value: number;
  onChange: (v: number) => void;
  topLabel: string;
  exclude?: number;
  id?: string;
}) {
  const tree = useMemo(() => {
    const prune = (nodes: FolderNode[]): FolderNode[] =>
      nodes.filter((n) => n.key !== exclude).map((n) => ({ ...n, children: prune(n.children) }));
    return [
      { key: NO_FOLDER, value: NO_FOLDER, title: topLabel, files: 0, children: [] },
      ...prune(folderTree(folders)),
    ];
  }, [folders, topLabel, exclude]);
  return (
    <TreeSelect
      id={id}
      treeData={tree}
      value={value}
      onChange={onChange}
      treeDefaultExpandAll
      showSearch
      treeNodeFilterProp="title"
      style={{ width: '100%' }}
      data-testid="files-folder-picker"
    />
  );
}

/**
 * The save of one of these dialogs: OK spins while it runs and the dialog closes once it went
 * through; a refusal keeps it open with the server's field errors, or else its message. A dialog
 * with no field to show one at (`fieldErrors: false`) shows any refusal as its message.
 */
function useDialogSave(close: () => void, { fieldErrors = true }: { fieldErrors?: boolean } = {}) {
  const { t } = useTranslation();
  const [saving, setSaving] = useState(false);
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [general, setGeneral] = useState<string | null>(null);
  const reset = useCallback(() => {
    setErrors({});
    setGeneral(null);
  }, []);
  const save = async (write: () => Promise<void>) => {
    setSaving(true);
    try {
      await write();
      close();
    } catch (err) {
      const e = fieldErrors ? fieldErrorsOf(err, t) : { fields: {}, general: errorText(err) };
      setErrors(e.fields);
      setGeneral(e.general);
    } finally {
      setSaving(false);
    }
  };
  return { saving, errors, setErrors, general, reset, save, close };
}

/** The frame of these dialogs: a vertical form, the save's message under its fields. */
function FileDialog({
  open,
  title,
  okTestId,
  state,
  onSubmit,
  submitOnEnter = false,
  children,
}: {
  open: boolean;
  title: string;
  okTestId: string;
  state: ReturnType<typeof useDialogSave>;
  onSubmit: () => Promise<void>;
  /** Submitting the form (Enter in a lone text field) saves, as OK does. */
  submitOnEnter?: boolean;
  children: ReactNode;
}) {
  return (
    <Modal
      open={open}
      title={title}
      onCancel={state.close}
      onOk={() => void onSubmit()}
      okButtonProps={{ loading: state.saving, 'data-testid': okTestId }}
      destroyOnHidden
    >
      <Form layout="vertical" onFinish={submitOnEnter ? () => void onSubmit() : undefined}>
        {children}
        {state.general ? <Alert type="error" showIcon title={state.general} /> : null}
      </Form>
    </Modal>
  );
}

/** The name a dialog asks for (a file's, a folder's), focused, with its error under it. */
function NameItem({
  id,
  label,
  value,
  onChange,
  maxLength,
  error,
  testId,
}: {
  id: string;
  label: string;
  value: string;
  onChange: (name: string) => void;
  maxLength: number;
  error: string | undefined;
  testId: string;
}) {
  return (
    <Form.Item label={label} htmlFor={id} validateStatus={error ? 'error' : undefined} help={error} required>
      <Input
        id={id}
        value={value}
        onChange={(e) => onChange(e.target.value)}
        maxLength={maxLength}
        autoFocus
        data-testid={testId}
      />
    </Form.Item>
  );
}

export function RenameFileModal({
  file,
  onClose,
  onSave,
}: {
  file: ResourceFileRow | null;
  onClose: () => void;
  onSave: (name: string) => Promise<void>;
}) {
  const { t } = useTranslation();
  const [name, setName] = useState('');
  const state = useDialogSave(onClose);
  const { errors, setErrors, reset } = state;
  useEffect(() => {
    setName(file?.name ?? '');
    reset();
  }, [file, reset]);
  const submit = async () => {
    if (!file) return;
    const clean = sanitizeFileName(name);
    const local = !clean
      ? 'error.required'
      : !fileExtension(clean)
        ? 'files.upload.name_invalid'
        : renameProblem(clean, file.mime);
    if (local) {
      setErrors({ name: t(local) });
      return;
    }
    await state.save(() => onSave(clean));
  };
  return (
    <FileDialog
      open={file !== null}
      title={t('files.rename.title')}
      okTestId="files-rename-ok"
      state={state}
      onSubmit={submit}
      submitOnEnter
    >
      <NameItem
        id="files-rename-name"
        label={t('files.col.name')}
        value={name}
        onChange={setName}
        maxLength={200}
        error={errors.name}
        testId="files-rename-input"
      />
    </FileDialog>
  );
}

export function MoveFilesModal({
  count,
  folders,
  open,
  initial,
  onClose,
  onMove,
}: {
  count: number;
  folders: ResourceFolder[];
  open: boolean;
  initial: number | null;
  onClose: () => void;
  onMove: (folderId: number | null) => Promise<void>;
}) {
  const { t } = useTranslation();
  const [target, setTarget] = useState<number>(initial ?? NO_FOLDER);
  const state = useDialogSave(onClose, { fieldErrors: false });
  const { reset } = state;
  useEffect(() => {
    if (open) {
      setTarget(initial ?? NO_FOLDER);
      reset();
    }
  }, [open, initial, reset]);
  return (
    <FileDialog
      open={open}
      title={t('files.move.title', { count })}
      okTestId="files-move-ok"
      state={state}
      onSubmit={() => state.save(() => onMove(target === NO_FOLDER ? null : target))}
    >
      <Form.Item label={t('files.move.target')} htmlFor="files-move-target">
        <FolderPicker
          id="files-move-target"
          folders={folders}
          value={target}
          onChange={setTarget}
          topLabel={t('files.folder.none')}
        />
      </Form.Item>
    </FileDialog>
  );
}

export interface FolderDialog {
  /** null: a new folder. */
  folder: ResourceFolder | null;
  parentId: number | null;
}

export function FolderModal({
  dialog,
  folders,
  onClose,
  onSave,
}: {
  dialog: FolderDialog | null;
  folders: ResourceFolder[];
  onClose: () => void;
  onSave: (name: string, parentId: number | null) => Promise<void>;
}) {
  const { t } = useTranslation();
  const [name, setName] = useState('');
  const [parent, setParent] = useState<number>(NO_FOLDER);
  const state = useDialogSave(onClose);
  const { errors, setErrors, reset } = state;
  useEffect(() => {
    setName(dialog?.folder?.name ?? '');
    setParent(dialog?.parentId ?? NO_FOLDER);
    reset();
  }, [dialog, reset]);
  const submit = async () => {
    if (!sanitizeFileName(name)) {
      setErrors({ name: t('error.required') });
      return;
    }
    await state.save(() => onSave(name, parent === NO_FOLDER ? null : parent));
  };
  return (
    <FileDialog
      open={dialog !== null}
      title={dialog?.folder ? t('files.folder.rename') : t('files.folder.new')}
      okTestId="files-folder-ok"
      state={state}
      onSubmit={submit}
      submitOnEnter
    >
      <NameItem
        id="files-folder-name"
        label={t('files.folder.name')}
        value={name}
        onChange={setName}
        maxLength={80}
        error={errors.name}
        testId="files-folder-name"
      />
      <Form.Item
        label={t('files.folder.parent')}
        htmlFor="files-folder-parent"
        validateStatus={errors.parent_id ? 'error' : undefined}
        help={errors.parent_id}
      >
        <FolderPicker
          id="files-folder-parent"
          folders={folders}
          value={parent}
          onChange={setParent}
          topLabel={t('files.folder.top')}
          exclude={dialog?.folder?.id}
        />
      </Form.Item>
    </FileDialog>
  );
}
