/**
 * Finance reports (screens under `/finance_reports`, docs/decisions/030-finance-reports.md):
 *   GET /v1/finance-reports?from=YYYY-MM&to=YYYY-MM&product=all|ac|playon&group=network|publisher|product&ids=&sort=&page=&page_size=
 *   GET /v1/finance-reports/export?…the same query…&format=csv|xlsx
 *   GET /v1/finance-reports/entities?group=network|publisher
 * Read-only; the ACL resource `/v1/finance-reports` (read).
 */
import { ok } from '@backoffice/core/envelope';
import {
  FINANCE_DELTA_METRICS,
  FINANCE_EXPORT_MAX_ROWS,
  FINANCE_EXPORT_NAME,
  FINANCE_METRICS,
  FINANCE_REPORTS_RESOURCE,
  financeEntitiesQuerySchema,
  financeExportQuerySchema,
  financeQuerySchema,
  type FinanceAnswer,
  type FinanceQuery,
  type FinanceRow,
} from '@backoffice/core/finance-reports';
import { localeFromAcceptLanguage, translate, type Locale } from '@backoffice/core/i18n/catalogues';
import { fractionToPercent } from '@backoffice/core/performance-report';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { AppContext } from '../../context.ts';
import type { Database } from '../../db/client.ts';
import { AppError } from '../../lib/errors.ts';
import { sendTableFile, type TableCell } from '../../lib/table-file.ts';
import { domainValidator, type ZodTypeProvider } from '../../plugins/validation.ts';
import { financeEntities, financeReport } from './service.ts';

const PERMISSION = { resource: FINANCE_REPORTS_RESOURCE, action: 'read' } as const;
const OWN_PREFIXES = ['finance_reports.', 'report.'];

const financeValidator = domainValidator(OWN_PREFIXES);

interface ExportColumn {
  title: string;
  kind: 'text' | 'number';
  value: (r: FinanceRow) => TableCell;
}

/** Month, name (and id), each figure, then each delta; percentages as percent, money exact decimals. */
export function exportColumns(answer: FinanceAnswer, locale: Locale): ExportColumn[] {
  const t = (key: string, params?: Record<string, string>) => translate(locale, key, params);
  const percent = (v: string | null) => (v === null ? null : fractionToPercent(v));
  const field = (r: FinanceRow, k: string) =>
    (r as unknown as Record<string, string | number | null>)[k] ?? null;
  const cols: ExportColumn[] = [
    { title: t('finance_reports.column.month'), kind: 'text', value: (r) => r.month },
    { title: t(`finance_reports.group.${answer.group}`), kind: 'text', value: (r) => r.name },
  ];
  if (answer.group !== 'product')
    cols.push({ title: t('finance_reports.column.id'), kind: 'number', value: (r) => r.id });
  for (const m of FINANCE_METRICS) {
    const title = `${t(`finance_reports.metric.${m}`)}${m === 'margin_pct' || m === 'impressions' ? '' : ` (${answer.currency})`}`;
    cols.push({
      title,
      kind: 'number',
      value: (r) => (m === 'margin_pct' ? percent(r.margin_pct) : field(r, m)),
    });
  }
  for (const m of FINANCE_DELTA_METRICS) {
    const label = t(`finance_reports.metric.${m}`);
    if (m === 'margin_pct') {
      cols.push({
        title: t('finance_reports.export.delta_points', { metric: label }),
        kind: 'number',
        value: (r) => percent(r.margin_pct_delta),
      });
      continue;
    }
    cols.push(
      {
        title: t('finance_reports.export.delta', { metric: label }),
        kind: 'number',
        value: (r) => field(r, `${m}_delta`),
      },
      {
        title: t('finance_reports.export.delta_pct', { metric: label }),
        kind: 'number',
        value: (r) => {
          const v = field(r, `${m}_delta_pct`);
          return v === null ? null : percent(String(v));
        },
      },
    );
  }
  return cols;
}

async function sendExport(
  request: FastifyRequest,
  reply: FastifyReply,
  database: Database,
  q: FinanceQuery,
  format: 'csv' | 'xlsx',
) {
  const locale = localeFromAcceptLanguage(request.headers['accept-language']);
  const answer = await financeReport(database, q, { limit: FINANCE_EXPORT_MAX_ROWS, offset: 0 });
  if (answer.rows.length === 0) throw new AppError(422, 'report.export_empty');
  const cols = exportColumns(answer, locale);
  async function* batches() {
    for (let i = 0; i < answer.rows.length; i += 1000)
      yield answer.rows.slice(i, i + 1000).map((r) => cols.map((c) => c.value(r)));
  }
  reply.header('cache-control', 'no-store');
  return sendTableFile(request, reply, {
    name: FINANCE_EXPORT_NAME,
    format,
    titles: cols.map((c) => c.title),
    numeric: cols.map((c) => c.kind !== 'text'),
    batches: batches(),
  });
}

export async function financeReportRoutes(root: FastifyInstance, ctx: AppContext): Promise<void> {
  const app = root.withTypeProvider<ZodTypeProvider>();
  const { database } = ctx;
  const describe =
    'from, to: YYYY-MM (to not after the current UTC month, at most 36 months); product=all|ac|playon (ac: environment app or ctv; playon: video in web pages); ' +
    'group=network|publisher|product; ids: comma-separated network or publisher ids; sort: month, name, a metric or a delta (-field descending); page, page_size. ' +
    'Money in USD as decimal strings (6 places); revenue and cost from the warehouse, adjusted revenue, invoiced and collected from the SSP advertiser billing rows (docs/decisions/030).';

  app.get(
    '/v1/finance-reports',
    {
      config: { auth: { permission: PERMISSION } },
      schema: {
        tags: ['reports'],
        summary:
          "Finance report: month x network, publisher or product rows of revenue, cost, margin, adjusted revenue, invoiced and collected, with month-over-month deltas, totals and each month's totals",
        description: describe,
        querystring: financeQuerySchema(),
      },
      validatorCompiler: financeValidator,
    },
    async (request) => {
      const q = request.query;
      return ok(await financeReport(database, q, { limit: q.page_size, offset: (q.page - 1) * q.page_size }));
    },
  );

  app.get(
    '/v1/finance-reports/export',
    {
      config: { auth: { permission: PERMISSION } },
      schema: {
        tags: ['reports'],
        summary: 'Finance report as CSV or XLSX: every filtered row (finance_report_YYYY-MM-DD_HHmmss.ext)',
        description: `${describe} format=csv|xlsx; page and page_size are ignored. Column titles in the request's language.`,
        querystring: financeExportQuerySchema(),
      },
      validatorCompiler: financeValidator,
    },
    async (request, reply) => {
      const { format, ...q } = request.query;
      return sendExport(request, reply, database, q, format);
    },
  );

  app.get(
    '/v1/finance-reports/entities',
    {
      config: { auth: { permission: PERMISSION } },
      schema: {
        tags: ['reports'],
        summary: "The finance reports' filter choices: every demand partner (network) or publisher, by name",
        querystring: financeEntitiesQuerySchema,
      },
      validatorCompiler: financeValidator,
    },
    async (request) => ok(await financeEntities(database, request.query.group)),
  );
}
