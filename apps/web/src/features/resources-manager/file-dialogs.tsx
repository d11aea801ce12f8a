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
import { useEffect, useMemo, useState } from 'react';
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
  const [error, setError] = useState<string | null>(null);
  const [general, setGeneral] = useState<string | null>(null);
  const [saving, setSaving] = useState(false);
  useEffect(() => {
    setName(file?.name ?? '');
    setError(null);
    setGeneral(null);
  }, [file]);
  const submit = async () => {
    if (!file) return;
    const clean = sanitizeFileName(name);
    const local = !clean
      ? 'error.required'
      : !fileExtension(clean)
        ? 'files.upload.name_invalid'
        : renameProblem(clean, file.mime);
    if (local) {
      setError(t(local));
      return;
    }
    setSaving(true);
    try {
      await onSave(clean);
      onClose();
    } catch (err) {
      const e = fieldErrorsOf(err, t);
      setError(e.fields.name ?? null);
      setGeneral(e.general);
    } finally {
      setSaving(false);
    }
  };
  return (
    <Modal
      open={file !== null}
      title={t('files.rename.title')}
      onCancel={onClose}
      onOk={() => void submit()}
      okButtonProps={{ loading: saving, 'data-testid': 'files-rename-ok' }}
      destroyOnHidden
    >
      <Form layout="vertical" onFinish={() => void submit()}>
        <Form.Item
          label={t('files.col.name')}
          htmlFor="files-rename-name"
          validateStatus={error ? 'error' : undefined}
          help={error ?? undefined}
          required
        >
          <Input
            id="files-rename-name"
            value={name}
            onChange={(e) => setName(e.target.value)}
            maxLength={200}
            autoFocus
            data-testid="files-rename-input"
          />
        </Form.Item>
        {general ? <Alert type="error" showIcon title={general} /> : null}
      </Form>
    </Modal>
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
  const [general, setGeneral] = useState<string | null>(null);
  const [saving, setSaving] = useState(false);
  useEffect(() => {
    if (open) {
      setTarget(initial ?? NO_FOLDER);
      setGeneral(null);
    }
  }, [open, initial]);
  const submit = async () => {
    setSaving(true);
    try {
      await onMove(target === NO_FOLDER ? null : target);
      onClose();
    } catch (err) {
      setGeneral(errorText(err));
    } finally {
      setSaving(false);
    }
  };
  return (
    <Modal
      open={open}
      title={t('files.move.title', { count })}
      onCancel={onClose}
      onOk={() => void submit()}
      okButtonProps={{ loading: saving, 'data-testid': 'files-move-ok' }}
      destroyOnHidden
    >
      <Form layout="vertical">
        <Form.Item label={t('files.move.target')} htmlFor="files-move-target">
          <FolderPicker
            id="files-move-target"
            folders={folders}
            value={target}
            onChange={setTarget}
            topLabel={t('files.folder.none')}
          />
        </Form.Item>
        {general ? <Alert type="error" showIcon title={general} /> : null}
      </Form>
    </Modal>
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
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [general, setGeneral] = useState<string | null>(null);
  const [saving, setSaving] = useState(false);
  useEffect(() => {
    setName(dialog?.folder?.name ?? '');
    setParent(dialog?.parentId ?? NO_FOLDER);
    setErrors({});
    setGeneral(null);
  }, [dialog]);
  const submit = async () => {
    if (!sanitizeFileName(name)) {
      setErrors({ name: t('error.required') });
      return;
    }
    setSaving(true);
    try {
      await onSave(name, parent === NO_FOLDER ? null : parent);
      onClose();
    } catch (err) {
      const e = fieldErrorsOf(err, t);
      setErrors(e.fields);
      setGeneral(e.general);
    } finally {
      setSaving(false);
    }
  };
  return (
    <Modal
      open={dialog !== null}
      title={dialog?.folder ? t('files.folder.rename') : t('files.folder.new')}
      onCancel={onClose}
      onOk={() => void submit()}
      okButtonProps={{ loading: saving, 'data-testid': 'files-folder-ok' }}
      destroyOnHidden
    >
      <Form layout="vertical" onFinish={() => void submit()}>
        <Form.Item
          label={t('files.folder.name')}
          htmlFor="files-folder-name"
          validateStatus={errors.name ? 'error' : undefined}
          help={errors.name}
          required
        >
          <Input
            id="files-folder-name"
            value={name}
            onChange={(e) => setName(e.target.value)}
            maxLength={80}
            autoFocus
            data-testid="files-folder-name"
          />
        </Form.Item>
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
        {general ? <Alert type="error" showIcon title={general} /> : null}
      </Form>
    </Modal>
  );
}
