/**
 * Saved DataViewers on the resource layer: their reads (the list of those the caller may open,
 * filtered by name and sorted, one DataViewer, its history, export, autocomplete) come from the
 * layer; saving, changing, sharing and deleting stay the DataViewer's own routes (POST, PATCH,
 * DELETE /v1/reports/dataviewers), with their ownership rules. The owner and ADMIN see a saved
 * DataViewer, and the roles it is shared with; anybody else gets 404. Reads need 'read' on
 * '/v1/reports' (running and opening reports); the changes need 'write' on DATAVIEWERS_RESOURCE.
 */
import { z } from 'zod';
import { COMMON_FIELDS, defineResource } from './define.ts';

export const savedDataviewers = defineResource({
  name: 'saved_dataviewers',
  entity: 'dataviewer',
  path: '/v1/reports/dataviewers',
  acl: '/v1/reports',
  // The changes are the DataViewer's own routes (their bodies: dataviewerCreateSchema and
  // dataviewerUpdateSchema in reports.ts); the layer offers none.
  schema: z.strictObject({}),
  fields: {
    id: COMMON_FIELDS.id,
    name: { label: 'report.name', type: 'text', list: true, sort: true, filter: 'contains' },
    owner_id: { label: 'report.owner', type: 'ref', ref: 'users', list: true },
    created_at: COMMON_FIELDS.created_at,
    updated_at: COMMON_FIELDS.updated_at,
  },
  titleField: 'name',
  defaultSort: 'name',
  exportName: 'saved_dataviewers',
  writes: [],
});
