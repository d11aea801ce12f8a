/**
 * The resources manager's folders and files (docs/decisions/045-resources-manager.md). Columns carry
 * the API's field names (the resource layer maps fields to columns by name).
 *
 * `resource_folders`: a tree (parent_id; a folder with files or subfolders is not deleted: the
 * foreign keys restrict it). A name is unique among its siblings, case-insensitively (the expression
 * index treats the top level, parent null, as one parent).
 * `resource_files`: one stored file: its sanitised name, folder (null: none), the kind and type read
 * from its bytes, its size and SHA-256, who uploaded it (owner_id), and the storage key of its
 * bytes (`resources/<32 hex>`: random, never derived from the name).
 */
import { sql } from 'drizzle-orm';
import {
  bigint,
  check,
  index,
  integer,
  pgTable,
  serial,
  text,
  uniqueIndex,
  type AnyPgColumn,
} from 'drizzle-orm/pg-core';
import { resourceColumns, users } from './schema.ts';

export const resourceFolders = pgTable(
  'resource_folders',
  {
    id: serial('id').primaryKey(),
    name: text('name').notNull(),
    parentId: integer('parent_id').references((): AnyPgColumn => resourceFolders.id, {
      onDelete: 'restrict',
    }),
    ...resourceColumns(),
  },
  (t) => [
    uniqueIndex('resource_folders_sibling_name_idx').on(
      sql`coalesce(${t.parentId}, 0)`,
      sql`lower(${t.name})`,
    ),
    index('resource_folders_parent_idx').on(t.parentId),
    check('resource_folders_not_own_parent', sql`${t.parentId} IS NULL OR ${t.parentId} <> ${t.id}`),
  ],
);

export const resourceFiles = pgTable(
  'resource_files',
  {
    id: serial('id').primaryKey(),
    name: text('name').notNull(),
    folderId: integer('folder_id').references(() => resourceFolders.id, { onDelete: 'restrict' }),
    kind: text('kind').notNull(),
    mime: text('mime').notNull(),
    bytes: bigint('bytes', { mode: 'number' }).notNull(),
    sha256: text('sha256').notNull(),
    storageKey: text('storage_key').notNull(),
    ownerId: integer('owner_id').references(() => users.id, { onDelete: 'set null' }),
    ...resourceColumns(),
  },
  (t) => [
    uniqueIndex('resource_files_storage_key_idx').on(t.storageKey),
    // The list's sorts and filters read these in order (ties end on id).
    index('resource_files_folder_idx').on(t.folderId, t.id),
    index('resource_files_created_idx').on(t.createdAt, t.id),
    index('resource_files_name_idx').on(t.name, t.id),
    index('resource_files_kind_idx').on(t.kind, t.id),
    check('resource_files_bytes_check', sql`${t.bytes} > 0`),
    check(
      'resource_files_kind_check',
      sql`${t.kind} IN ('image', 'pdf', 'document', 'spreadsheet', 'presentation', 'csv', 'archive', 'video', 'audio')`,
    ),
  ],
);
