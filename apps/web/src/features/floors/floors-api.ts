/** The floors API's answers as the screen reads them (apps/api/src/modules/floors/routes.ts). */
import type { FloorKey, KeyMatch } from '@backoffice/core/floors';

export interface FloorRuleRow {
  id: number;
  keys: Record<FloorKey, string>;
  cpm: string;
  currency: string;
  type: 'hard' | 'soft';
  specificity: number;
  since_version?: number;
  publisher_name: string | null;
  demand_partner_name: string | null;
}

export interface RulesPage {
  items: FloorRuleRow[];
  total: number;
  page: number;
  page_size: number;
  version: number;
  current_version: number;
}

export interface VersionWritten {
  version: number;
  added: number;
  changed: number;
  removed: number;
  rule_count: number;
}

export interface VersionRow {
  version: number;
  comment: string;
  source: 'edit' | 'delete' | 'import' | 'restore';
  restored_from: number | null;
  added: number;
  changed: number;
  removed: number;
  rule_count: number;
  created_at: string;
  created_by: { id: number | null; name: string | null };
}

export interface DiffLists {
  added: FloorRuleRow[];
  removed: FloorRuleRow[];
  changed: {
    before: { cpm: string; currency: string; type: string };
    after: FloorRuleRow;
    fields: string[];
  }[];
}

export interface DiffCounts {
  added: number;
  changed: number;
  removed: number;
  unchanged: number;
}

export interface Comparison extends DiffCounts {
  from: number;
  to: number;
  lists: DiffLists;
}

export interface ImportPreview {
  base_version: number;
  delimiter: ',' | ';';
  rows: number;
  errors: { line: number; field: string | null; key: string; value: string; first_line?: number }[];
  error_count: number;
  file_error: { key: string; params?: Record<string, string | number> } | null;
  diff: DiffCounts | null;
  lists: DiffLists | null;
}

export interface TestMatch {
  rule: FloorRuleRow;
  keys: Record<FloorKey, KeyMatch>;
  specificity: number;
}

export interface TestAnswer {
  version: number;
  rules: number;
  winner: TestMatch | null;
  runners_up: TestMatch[];
  fallback: { cpm: string; currency: string } | null;
}

/** How many rules a comparison or preview lists of each kind (the API's cap). */
export const LISTED = 500;
