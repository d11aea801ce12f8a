/**
 * Resources manager (`/utils/resources_manager2`; docs/decisions/045-resources-manager.md): the
 * files marketing, legal and supply keep, in folders. A folder tree (a picker on a phone) and a
 * breadcrumb; the list of the folder's files (or all) with type, size, owner and date, searched by
 * name and filtered by type, sorted and paged by the server, the view in the URL, a column chooser
 * and CSV/XLSX export of what is filtered; uploads of several files with per-file progress;
 * preview (images, PDF, video), download, rename, move and delete (one or the selected files,
 * after confirmation). What the person may do follows the protected area `resources_manager`:
 * read, write (upload, rename, move, folders) and delete.
 */
import {
  DeleteOutlined,
  DownOutlined,
  DownloadOutlined,
  EditOutlined,
  EyeOutlined,
  FolderAddOutlined,
  FolderOutlined,
  FolderOpenOutlined,
  MoreOutlined,
  SwapOutlined,
  UploadOutlined,
} from '@ant-design/icons';
import {
  FILE_KINDS,
  FILE_MAX_BYTES,
  FILES_DELETE_ACTION,
  FILES_RESOURCE,
  folderPath,
  formatBytes,
  resourceFiles,
  type ResourceFileRow,
  type ResourceFolder,
} from '@backoffice/core/files';
import {
  App,
  Alert,
  Breadcrumb,
  Button,
  Dropdown,
  Empty,
  Input,
  Select,
  Space,
  Table,
  Tree,
  TreeSelect,
  Typography,
  type TableColumnsType,
  type TreeDataNode,
} from 'antd';
import { useCallback, useEffect, useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ColumnChooser, useStoredColumns } from '../../components/column-chooser.tsx';
import { ScrollRegion } from '../../components/scroll-region.tsx';
import { useLocale } from '../../components/use-locale.ts';
import { useNotice } from '../../components/use-notice.ts';
import { errorText } from '../../lib/api.ts';
import { usePermission } from '../../lib/permission.tsx';
import { useDebouncedValue } from '../../lib/use-debounced-value.ts';
import { useViewport } from '../../lib/use-viewport.ts';
import { downloadResourceExport, listPrefetcher, useResourceList } from '../../resources/resource-api.ts';
import { formatDateTime } from '../../resources/resource-cells.tsx';
import { useListQuery } from '../../resources/use-list-query.ts';
import { Page } from '../../shell/page.tsx';
import { FolderModal, MoveFilesModal, RenameFileModal, type FolderDialog } from './file-dialogs.tsx';
import {
  createFolderRequest,
  deleteFilesRequest,
  deleteFolderRequest,
  downloadFile,
  folderTree,
  moveFilesRequest,
  renameFileRequest,
  updateFolderRequest,
  useFolders,
  useRefreshFiles,
  type FolderNode,
} from './files-api.ts';
import { PreviewDrawer } from './preview-drawer.tsx';
import { UploadPanel } from './upload-panel.tsx';
import './resources-manager.css';

type Column = 'name' | 'kind' | 'bytes' | 'folder' | 'owner' | 'created_at';
const ALL_COLUMNS: readonly Column[] = ['name', 'kind', 'bytes', 'folder', 'owner', 'created_at'];
const COLUMN_LABEL: Record<Column, string> = {
  name: 'files.col.name',
  kind: 'files.col.kind',
  bytes: 'files.col.bytes',
  folder: 'files.col.folder',
  owner: 'files.col.owner',
  created_at: 'files.col.created_at',
};
/** The tree's node for "all files" (folders have positive ids). */
const ALL = -1;

function SearchBox({ value, onChange }: { value: string; onChange: (v: string) => void }) {
  const { t } = useTranslation();
  const [text, setText] = useState(value);
  const debounced = useDebouncedValue(text, 400);
  useEffect(() => setText(value), [value]);
  useEffect(() => {
    if (debounced !== value) onChange(debounced);
    // eslint-disable-next-line react-hooks/exhaustive-deps -- only typing applies the search
  }, [debounced]);
  return (
    <Input.Search
      allowClear
      aria-label={t('files.search')}
      placeholder={t('files.search')}
      value={text}
      onChange={(e) => setText(e.target.value)}
      onSearch={(v) => onChange(v)}
      className="bo-files-search"
      data-testid="files-search"
    />
  );
}

/** Asks for the first page as the navigation starts (app/routes.tsx). */
export const prefetchList = listPrefetcher(resourceFiles);

export default function ResourcesManagerPage() {
  const { t } = useTranslation();
  const locale = useLocale();
  const notice = useNotice();
  const { modal } = App.useApp();
  const { isMobile } = useViewport();
  const canWrite = usePermission(FILES_RESOURCE, 'write');
  const canDelete = usePermission(FILES_RESOURCE, FILES_DELETE_ACTION);
  const { query, setPage, setSort, setFilter } = useListQuery(resourceFiles);
  const list = useResourceList(resourceFiles, query);
  const folders = useFolders();
  const refresh = useRefreshFiles();
  const [visible, setVisible] = useStoredColumns<Column>('resource_files', ALL_COLUMNS, ALL_COLUMNS);
  const [selected, setSelected] = useState<number[]>([]);
  const [preview, setPreview] = useState<ResourceFileRow | null>(null);
  const [renaming, setRenaming] = useState<ResourceFileRow | null>(null);
  const [moving, setMoving] = useState<number[] | null>(null);
  const [folderDialog, setFolderDialog] = useState<FolderDialog | null>(null);
  const [uploadOpen, setUploadOpen] = useState(false);
  const [exporting, setExporting] = useState(false);

  const folderFilter = query.filters.find((f) => f.field === 'folder_id');
  const currentFolder =
    folderFilter?.kind === 'in' && folderFilter.values.length === 1 ? Number(folderFilter.values[0]) : null;
  const nameFilter = query.filters.find((f) => f.field === 'name');
  const kindFilter = query.filters.find((f) => f.field === 'kind');
  const allFolders: ResourceFolder[] = useMemo(() => folders.data ?? [], [folders.data]);
  const path = folderPath(allFolders, currentFolder);
  const current = currentFolder === null ? null : (allFolders.find((f) => f.id === currentFolder) ?? null);
  const tree = useMemo(() => folderTree(allFolders), [allFolders]);
  const rows = (list.data?.items ?? []) as unknown as ResourceFileRow[];

  // A new page, filter or folder starts with nothing selected.
  useEffect(() => setSelected([]), [query]);

  const openFolder = (id: number | null) =>
    setFilter('folder_id', id === null ? null : { field: 'folder_id', kind: 'in', values: [id] });
  const onUploaded = useCallback(() => void refresh(), [refresh]);

  const confirmDelete = (ids: number[], name?: string) => {
    modal.confirm({
      title: name
        ? t('files.delete.confirm_one', { name })
        : t('files.delete.confirm_many', { count: ids.length }),
      okText: t('files.action.delete'),
      okButtonProps: { danger: true, 'data-testid': 'files-delete-ok' },
      cancelText: t('common.cancel'),
      onOk: async () => {
        try {
          await deleteFilesRequest(ids);
          setSelected((s) => s.filter((id) => !ids.includes(id)));
          void notice.success(t(ids.length === 1 ? 'files.deleted_one' : 'files.deleted'));
        } catch (err) {
          void notice.error(errorText(err));
        } finally {
          await refresh();
        }
      },
    });
  };

  const confirmFolderDelete = (folder: ResourceFolder) => {
    modal.confirm({
      title: t('files.folder.delete_confirm', { name: folder.name }),
      okText: t('files.folder.delete'),
      okButtonProps: { danger: true, 'data-testid': 'files-folder-delete-ok' },
      cancelText: t('common.cancel'),
      onOk: async () => {
        try {
          await deleteFolderRequest(folder.id);
          void notice.success(t('files.folder.deleted'));
          openFolder(folder.parent_id);
        } catch (err) {
          void notice.error(errorText(err));
        } finally {
          await refresh();
        }
      },
    });
  };

  const download = (row: ResourceFileRow) =>
    void downloadFile(row).catch((err: unknown) => void notice.error(errorText(err)));

  const rowMenu = (row: ResourceFileRow) => ({
    items: [
      {
        key: 'preview',
        icon: <EyeOutlined />,
        label: t('files.action.preview'),
        onClick: () => setPreview(row),
      },
      {
        key: 'download',
        icon: <DownloadOutlined />,
        label: t('files.action.download'),
        onClick: () => download(row),
      },
      ...(canWrite
        ? [
            {
              key: 'rename',
              icon: <EditOutlined />,
              label: t('files.action.rename'),
              onClick: () => setRenaming(row),
            },
            {
              key: 'move',
              icon: <SwapOutlined />,
              label: t('files.action.move'),
              onClick: () => setMoving([row.id]),
            },
          ]
        : []),
      ...(canDelete
        ? [
            {
              key: 'delete',
              icon: <DeleteOutlined />,
              danger: true,
              label: t('files.action.delete'),
              onClick: () => confirmDelete([row.id], row.name),
            },
          ]
        : []),
    ],
  });

  const sortOf = (field: string): 'ascend' | 'descend' | null => {
    const s = query.sort.find((x) => x.field === field);
    return s ? (s.desc ? 'descend' : 'ascend') : null;
  };
  const columnDefs: Record<Column, TableColumnsType<ResourceFileRow>[number]> = {
    name: {
      key: 'name',
      title: t('files.col.name'),
      sorter: true,
      sortOrder: sortOf('name'),
      render: (_: unknown, row: ResourceFileRow) => (
        <Button
          type="link"
          className="bo-files-name"
          onClick={() => setPreview(row)}
          data-testid={`files-open-${row.id}`}
        >
          {row.name}
        </Button>
      ),
    },
    kind: {
      key: 'kind',
      title: t('files.col.kind'),
      sorter: true,
      sortOrder: sortOf('kind'),
      render: (_: unknown, row: ResourceFileRow) => t(`files.col.kind.${row.kind}`),
    },
    bytes: {
      key: 'bytes',
      title: t('files.col.bytes'),
      sorter: true,
      sortOrder: sortOf('bytes'),
      align: 'right',
      render: (_: unknown, row: ResourceFileRow) => formatBytes(row.bytes, locale),
    },
    folder: {
      key: 'folder',
      title: t('files.col.folder'),
      render: (_: unknown, row: ResourceFileRow) => row.folder_id_label ?? '—',
    },
    owner: {
      key: 'owner',
      title: t('files.col.owner'),
      render: (_: unknown, row: ResourceFileRow) => row.owner_id_label ?? '—',
    },
    created_at: {
      key: 'created_at',
      title: t('files.col.created_at'),
      sorter: true,
      sortOrder: sortOf('created_at'),
      render: (_: unknown, row: ResourceFileRow) => formatDateTime(row.created_at, locale),
    },
  };
  const columns: TableColumnsType<ResourceFileRow> = [
    ...visible.map((c) => columnDefs[c]),
    {
      key: 'actions',
      title: <span className="bo-visually-hidden">{t('files.col.actions')}</span>,
      width: 56,
      render: (_: unknown, row: ResourceFileRow) => (
        <Dropdown trigger={['click']} menu={rowMenu(row)}>
          <Button
            type="text"
            icon={<MoreOutlined />}
            aria-label={t('files.actions', { name: row.name })}
            data-testid={`files-actions-${row.id}`}
          />
        </Dropdown>
      ),
    },
  ];

  const countText = (n: FolderNode) => `${n.title} (${n.files})`;
  const treeData: TreeDataNode[] = [
    {
      key: ALL,
      title: t('files.all_files'),
      icon: <FolderOpenOutlined />,
      children: tree.map(function toNode(n: FolderNode): TreeDataNode {
        return {
          key: n.key,
          title: countText(n),
          icon: <FolderOutlined />,
          children: n.children.map(toNode),
        };
      }),
    },
  ];
  interface SelectNode {
    value: number;
    title: string;
    children: SelectNode[];
  }
  const selectData: SelectNode[] = [
    {
      value: ALL,
      title: t('files.all_files'),
      children: tree.map(function toNode(n: FolderNode): SelectNode {
        return { value: n.key, title: countText(n), children: n.children.map(toNode) };
      }),
    },
  ];

  const folderActions = (
    <Space wrap size={4}>
      {canWrite ? (
        <Button
          size="small"
          icon={<FolderAddOutlined />}
          onClick={() => setFolderDialog({ folder: null, parentId: currentFolder })}
          data-testid="files-folder-new"
        >
          {t('files.folder.new')}
        </Button>
      ) : null}
      {canWrite && current ? (
        <Button
          size="small"
          icon={<EditOutlined />}
          onClick={() => setFolderDialog({ folder: current, parentId: current.parent_id })}
          data-testid="files-folder-rename"
        >
          {t('files.folder.rename')}
        </Button>
      ) : null}
      {canDelete && current ? (
        <Button
          size="small"
          danger
          icon={<DeleteOutlined />}
          onClick={() => confirmFolderDelete(current)}
          data-testid="files-folder-delete"
        >
          {t('files.folder.delete')}
        </Button>
      ) : null}
    </Space>
  );

  const exportAs = async (format: 'csv' | 'xlsx') => {
    setExporting(true);
    try {
      await downloadResourceExport(resourceFiles, query, format);
    } catch (err) {
      void notice.error(errorText(err));
    } finally {
      setExporting(false);
    }
  };

  const folderName = current?.name ?? t('files.folder.none');

  return (
    <Page title={t('menu.resources_manager')} testId="resources-manager">
      <div className={`bo-files${isMobile ? ' bo-files--mobile' : ''}`}>
        <nav className="bo-files-tree" aria-label={t('files.folders')} data-testid="files-tree">
          <Typography.Title level={2} className="bo-files-tree__title">
            {t('files.folders')}
          </Typography.Title>
          {isMobile ? (
            <TreeSelect
              aria-label={t('files.folders')}
              treeData={selectData}
              value={currentFolder ?? ALL}
              onChange={(v: number) => openFolder(v === ALL ? null : v)}
              treeDefaultExpandAll
              style={{ width: '100%' }}
              data-testid="files-folder-select"
            />
          ) : (
            <Tree
              showIcon
              blockNode
              defaultExpandAll
              key={allFolders.length}
              treeData={treeData}
              selectedKeys={[currentFolder ?? ALL]}
              onSelect={(keys) => {
                const k = Number(keys[0] ?? currentFolder ?? ALL);
                openFolder(k === ALL ? null : k);
              }}
            />
          )}
          {folders.isError ? <Alert type="error" showIcon title={errorText(folders.error)} /> : null}
          {folderActions}
        </nav>
        <section className="bo-files-main" aria-labelledby="files-breadcrumb-label">
          <span id="files-breadcrumb-label" className="bo-visually-hidden">
            {t('files.breadcrumb')}
          </span>
          <Breadcrumb
            className="bo-files-crumbs"
            items={[
              {
                key: 'all',
                title:
                  currentFolder === null ? (
                    <span aria-current="page">{t('files.all_files')}</span>
                  ) : (
                    <a
                      href="#all"
                      onClick={(e) => {
                        e.preventDefault();
                        openFolder(null);
                      }}
                    >
                      {t('files.all_files')}
                    </a>
                  ),
              },
              ...path.map((f, i) => ({
                key: f.id,
                title:
                  i === path.length - 1 ? (
                    <span aria-current="page">{f.name}</span>
                  ) : (
                    <a
                      href={`#folder-${f.id}`}
                      onClick={(e) => {
                        e.preventDefault();
                        openFolder(f.id);
                      }}
                    >
                      {f.name}
                    </a>
                  ),
              })),
            ]}
            data-testid="files-breadcrumb"
          />
          <div className="bo-files-toolbar">
            <SearchBox
              value={nameFilter?.kind === 'contains' ? nameFilter.value : ''}
              onChange={(v) => setFilter('name', v ? { field: 'name', kind: 'contains', value: v } : null)}
            />
            <Select
              mode="multiple"
              allowClear
              maxTagCount="responsive"
              aria-label={t('files.col.kind')}
              placeholder={t('files.filter.kind')}
              className="bo-files-kind"
              value={kindFilter?.kind === 'in' ? (kindFilter.values as string[]) : []}
              options={FILE_KINDS.map((k) => ({ value: k, label: t(`files.col.kind.${k}`) }))}
              onChange={(values: string[]) =>
                setFilter('kind', values.length > 0 ? { field: 'kind', kind: 'in', values } : null)
              }
              data-testid="files-kind"
            />
            <Space wrap className="bo-files-toolbar__end">
              <ColumnChooser
                all={ALL_COLUMNS}
                visible={visible}
                onChange={setVisible}
                label={(k) => t(COLUMN_LABEL[k])}
                required={['name']}
                testId="files-columns"
              />
              <Dropdown
                trigger={['click']}
                disabled={!list.data || list.data.total === 0}
                menu={{
                  items: [
                    { key: 'csv', label: 'CSV', onClick: () => void exportAs('csv') },
                    { key: 'xlsx', label: 'XLSX', onClick: () => void exportAs('xlsx') },
                  ],
                }}
              >
                <Button icon={<DownloadOutlined />} loading={exporting} data-testid="files-export">
                  {t('resource.export')} <DownOutlined />
                </Button>
              </Dropdown>
              {canWrite ? (
                <Button
                  type="primary"
                  icon={<UploadOutlined />}
                  onClick={() => setUploadOpen((o) => !o)}
                  aria-expanded={uploadOpen}
                  data-testid="files-upload-toggle"
                >
                  {t('files.upload')}
                </Button>
              ) : null}
            </Space>
          </div>
          {canWrite ? (
            // Hidden, not unmounted, when closed: uploads under way go on.
            <div hidden={!uploadOpen}>
              <UploadPanel
                folderId={currentFolder}
                folderName={folderName}
                maxBytes={FILE_MAX_BYTES}
                onUploaded={onUploaded}
              />
            </div>
          ) : null}
          {selected.length > 0 ? (
            <div
              className="bo-files-bulk"
              role="region"
              aria-label={t('files.selected', { count: selected.length })}
              data-testid="files-bulk"
            >
              <Typography.Text strong>{t('files.selected', { count: selected.length })}</Typography.Text>
              {canWrite ? (
                <Button
                  icon={<SwapOutlined />}
                  onClick={() => setMoving(selected)}
                  data-testid="files-bulk-move"
                >
                  {t('files.action.move')}
                </Button>
              ) : null}
              {canDelete ? (
                <Button
                  danger
                  icon={<DeleteOutlined />}
                  onClick={() => confirmDelete(selected)}
                  data-testid="files-bulk-delete"
                >
                  {t('files.action.delete')}
                </Button>
              ) : null}
              <Button type="link" onClick={() => setSelected([])}>
                {t('files.selection_clear')}
              </Button>
            </div>
          ) : null}
          {list.isError ? (
            <Alert type="error" showIcon title={errorText(list.error)} data-testid="files-error" />
          ) : null}
          <ScrollRegion label={t('menu.resources_manager')}>
            <Table<ResourceFileRow>
              rowKey="id"
              size="middle"
              columns={columns}
              dataSource={rows}
              loading={list.isFetching}
              // Scrolled by CSS, not antd's `scroll`: its hidden measuring row would repeat the
              // "select all" checkbox where assistive technology must not reach it.
              className="bo-files-table"
              rowSelection={
                canWrite || canDelete
                  ? {
                      selectedRowKeys: selected,
                      onChange: (keys) => setSelected(keys.map(Number)),
                      getCheckboxProps: (row) => ({ 'aria-label': row.name }) as object,
                    }
                  : undefined
              }
              locale={{
                emptyText: (
                  <Empty
                    description={
                      query.filters.some((f) => f.field !== 'folder_id')
                        ? t('common.no_data_found')
                        : t('files.empty')
                    }
                  />
                ),
              }}
              onRow={(row) => ({ 'data-testid': `files-row-${row.id}` }) as object}
              pagination={{
                current: query.page,
                pageSize: query.page_size,
                total: list.data?.total ?? 0,
                showSizeChanger: true,
                pageSizeOptions: [10, 25, 50, 100, 200],
                showTotal: (total) => (
                  <Typography.Text type="secondary">{t('resource.rows', { count: total })}</Typography.Text>
                ),
              }}
              onChange={(pagination, _filters, sorter, extra) => {
                if (extra.action === 'paginate')
                  setPage(pagination.current ?? 1, pagination.pageSize ?? query.page_size);
                if (extra.action === 'sort') {
                  const s = Array.isArray(sorter) ? sorter[0] : sorter;
                  setSort(
                    s?.order && s.columnKey
                      ? [{ field: String(s.columnKey), desc: s.order === 'descend' }]
                      : [],
                  );
                }
              }}
            />
          </ScrollRegion>
        </section>
      </div>
      <PreviewDrawer file={preview} onClose={() => setPreview(null)} />
      <RenameFileModal
        file={renaming}
        onClose={() => setRenaming(null)}
        onSave={async (name) => {
          await renameFileRequest(renaming!, name);
          void notice.success(t('files.saved'));
          await refresh();
        }}
      />
      <MoveFilesModal
        open={moving !== null}
        count={moving?.length ?? 0}
        folders={allFolders}
        initial={currentFolder}
        onClose={() => setMoving(null)}
        onMove={async (folderId) => {
          await moveFilesRequest(moving ?? [], folderId);
          setSelected([]);
          void notice.success(t('files.moved'));
          await refresh();
        }}
      />
      <FolderModal
        dialog={folderDialog}
        folders={allFolders}
        onClose={() => setFolderDialog(null)}
        onSave={async (name, parentId) => {
          if (folderDialog?.folder) await updateFolderRequest(folderDialog.folder, name, parentId);
          else {
            const created = await createFolderRequest(name, parentId);
            openFolder(created.id);
          }
          void notice.success(t(folderDialog?.folder ? 'files.folder.saved' : 'files.folder.created'));
          await refresh();
        }}
      />
    </Page>
  );
}
