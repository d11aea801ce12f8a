/**
 * Creatives (screens `/utils/info_creative_sizes` and `/utils/creatives_resize_tool`; contract in
 * packages/core/src/creatives.ts, docs/decisions/042-creatives.md):
 *   GET  /v1/creatives/sizes                 the IAB standard sizes: search, format, most common, sort, page
 *   GET  /v1/creatives/sizes/export          the filtered sizes as CSV or XLSX
 *   GET  /v1/creatives/sizes/:size           one size with the ad units that use it (paged)
 *   POST /v1/creatives/resize                multipart upload: resize an image to chosen sizes (audited)
 *   GET  /v1/creatives/resize/:id/:size      one result (the person who resized, until it expires)
 *   GET  /v1/creatives/resize/:file          every result as a zip (`<id>.zip`)
 * ACL: `/v1/creatives` read to list, look and download; write to resize.
 */
import {
  CREATIVES_RESOURCE,
  CREATIVE_MAX_INPUT_PIXELS,
  CREATIVE_MAX_INPUT_SIDE,
  CREATIVE_MAX_TARGETS,
  CREATIVE_RESIZE_TTL_MINUTES,
  CREATIVE_SIDE_MAX,
  CREATIVE_SIDE_MIN,
  CREATIVE_SIZES_EXPORT_NAME,
  CREATIVE_UPLOAD_MAX_BYTES,
  RESIZE_RATE_MAX,
  RESIZE_RATE_WINDOW_SEC,
  creativeSizeDetailQuerySchema,
  creativeSizeExportQuerySchema,
  creativeSizeListQuerySchema,
  creativeSizeParamsSchema,
  resizeResultParamsSchema,
  resizeZipParamsSchema,
  type CreativeSizesAnswer,
} from '@backoffice/core/creatives';
import { ok } from '@backoffice/core/envelope';
import { localeFromAcceptLanguage, translate } from '@backoffice/core/i18n/catalogues';
import { errorEnvelopeSchema } from '@backoffice/core/schemas/envelope';
import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../../context.ts';
import { AppError } from '../../lib/errors.ts';
import { registerMultipart } from '../../lib/multipart.ts';
import { sendTableFile, type TableCell } from '../../lib/table-file.ts';
import type { ZodTypeProvider } from '../../plugins/validation.ts';
import { RESIZE_MULTIPART_LIMITS, resize, sendOne, sendZip } from './service.ts';
import { exportSizes, listSizes, sizeDetail } from './sizes.ts';

export async function creativeRoutes(root: FastifyInstance, ctx: AppContext): Promise<void> {
  const app = root.withTypeProvider<ZodTypeProvider>();
  const now = () => ctx.now?.() ?? Date.now();
  const tags = ['creatives'];
  const READ = { auth: { permission: { resource: CREATIVES_RESOURCE, action: 'read' } } } as const;
  const WRITE = { auth: { permission: { resource: CREATIVES_RESOURCE, action: 'write' } } } as const;
  const base = CREATIVES_RESOURCE;
  const localeOf = (h: string | undefined) => localeFromAcceptLanguage(h);
  const filtersText =
    'search (a name in English or Spanish, a size such as 300x250, or a width / height), ad_format (display, rich_media, video_companion, mobile), common (true: the 15 most common), ' +
    'sort (common, area, width, height, weight, name, ad_units; -field descending; default -common). Names come in the request’s language (Accept-Language).';

  app.get(
    `${base}/sizes`,
    {
      config: READ,
      schema: {
        tags,
        summary: 'The IAB standard ad sizes with their initial-load and subload weight limits (kB), formats, and how many ad units use each; paged',
        description: `${filtersText} page, page_size (at most 100).`,
        querystring: creativeSizeListQuerySchema,
        response: { 400: errorEnvelopeSchema },
      },
    },
    async (request) => {
      const q = request.query;
      const out = await listSizes(ctx.database, q, localeOf(request.headers['accept-language']));
      return ok({ ...out, page: q.page, page_size: q.page_size } satisfies CreativeSizesAnswer);
    },
  );

  app.get(
    `${base}/sizes/export`,
    {
      config: READ,
      schema: {
        tags,
        summary: 'The filtered sizes as CSV or XLSX',
        description: `${filtersText} format=csv|xlsx. File ${CREATIVE_SIZES_EXPORT_NAME}_YYYY-MM-DD_HHmmss.<ext>; titles in the request's language.`,
        querystring: creativeSizeExportQuerySchema,
        response: { 400: errorEnvelopeSchema },
      },
    },
    async (request, reply) => {
      const { format, ...q } = request.query;
      const locale = localeOf(request.headers['accept-language']);
      const t = (key: string) => translate(locale, key);
      const rows = await exportSizes(ctx.database, q, locale);
      async function* batches() {
        yield rows.map((r): TableCell[] => [
          r.id,
          r.name,
          r.width,
          r.height,
          r.initial_load_kb,
          r.subload_kb,
          t(`creatives.basis.${r.weight_basis}`),
          r.formats.map((f) => t(`creatives.format.${f}`)).join(', '),
          r.common ? '✓' : '',
          r.ad_units,
        ]);
      }
      reply.header('cache-control', 'no-store');
      return sendTableFile(request, reply, {
        name: CREATIVE_SIZES_EXPORT_NAME,
        format,
        titles: ['size', 'name', 'width', 'height', 'initial_load', 'subload', 'basis', 'formats', 'common', 'ad_units'].map((k) => t(`creatives.col.${k}`)),
        batches: batches(),
      });
    },
  );

  app.get(
    `${base}/sizes/:size`,
    {
      config: READ,
      schema: {
        tags,
        summary: 'One IAB size with the ad units that use it (publisher, site or app, ad unit, media type), paged',
        description:
          'size: a standard size id (300x250; 404 creatives.size_not_found otherwise). search (ad unit, site or publisher name), page, page_size (default 20, at most 100). ' +
          'served is false for a size the ad server has no size id for (no ad unit can use it).',
        params: creativeSizeParamsSchema,
        querystring: creativeSizeDetailQuerySchema,
        response: { 400: errorEnvelopeSchema, 404: errorEnvelopeSchema },
      },
    },
    async (request) => {
      const out = await sizeDetail(ctx.database, request.params.size, request.query, localeOf(request.headers['accept-language']));
      if (!out) throw new AppError(404, 'creatives.size_not_found');
      return ok(out);
    },
  );

  // The upload route in its own scope: multipart is parsed here only (lib/multipart.ts).
  await root.register(async (upload) => {
    await registerMultipart(upload, RESIZE_MULTIPART_LIMITS);
    upload.withTypeProvider<ZodTypeProvider>().post(
      `${base}/resize`,
      {
        config: WRITE,
        schema: {
          tags,
          summary: 'Resize an uploaded image to chosen sizes (multipart/form-data; audited)',
          description:
            `Fields: file (one JPEG, PNG, WebP or GIF, at most ${CREATIVE_UPLOAD_MAX_BYTES / 1048576} MiB; the type is read from the bytes, never the name) and options (JSON): ` +
            `sizes (1-${CREATIVE_MAX_TARGETS} of WIDTHxHEIGHT, standard or custom, sides ${CREATIVE_SIDE_MIN}-${CREATIVE_SIDE_MAX} px), fit (cover | contain), focal_x and focal_y (0-1; what cover keeps in view), ` +
            'format (jpeg | png | webp), quality (1-100), background (#rrggbb: contain’s padding, a JPEG’s ground under transparency). ' +
            `Refused before decoding: an image declaring more than ${CREATIVE_MAX_INPUT_PIXELS / 1_000_000} megapixels or ${CREATIVE_MAX_INPUT_SIDE} px a side (413 creatives.upload.too_many_pixels; a decompression bomb), ` +
            'a file that is not an image we take (415 creatives.upload.type), a file over the limit (413 creatives.upload.too_large). ' +
            `Answers the result id, its expiry (${CREATIVE_RESIZE_TTL_MINUTES} minutes), and per size the dimensions, bytes, the IAB initial-load limit and whether it is over, and a WebP preview (data URL). ` +
            `At most ${RESIZE_RATE_MAX} resizes per person in ${RESIZE_RATE_WINDOW_SEC / 60} minutes (429); 503 creatives.resize.busy when the server is full.`,
          consumes: ['multipart/form-data'],
          body: {
            type: 'object',
            required: ['file', 'options'],
            properties: { file: { type: 'string', format: 'binary' }, options: { type: 'string', description: 'JSON: sizes, fit, focal_x, focal_y, format, quality, background' } },
          },
          response: { 400: errorEnvelopeSchema, 413: errorEnvelopeSchema, 415: errorEnvelopeSchema, 429: errorEnvelopeSchema, 503: errorEnvelopeSchema },
        },
      },
      async (request) => {
        const result = await resize(ctx, request, now());
        return ok(result, result.outputs.length === 1 ? 'creatives.resize.done_one' : 'creatives.resize.done');
      },
    );
  });

  app.get(
    `${base}/resize/:id/:size`,
    {
      config: READ,
      schema: {
        tags,
        summary: 'One resized image (for the person who resized it, until the result expires)',
        description: '404 creatives.resize.not_found for an unknown id or size, or a result of someone else; 410 once expired.',
        params: resizeResultParamsSchema,
        response: { 400: errorEnvelopeSchema, 404: errorEnvelopeSchema, 410: errorEnvelopeSchema },
      },
    },
    async (request, reply) => sendOne(ctx, request, reply, request.params.id, request.params.size, now()),
  );

  app.get(
    `${base}/resize/:file`,
    {
      config: READ,
      schema: {
        tags,
        summary: 'Every resized image of a result as a zip (file: <id>.zip), streamed',
        description: '404 creatives.resize.not_found for an unknown id or a result of someone else; 410 once expired.',
        params: resizeZipParamsSchema,
        response: { 400: errorEnvelopeSchema, 404: errorEnvelopeSchema, 410: errorEnvelopeSchema },
      },
    },
    async (request, reply) => sendZip(ctx, request, reply, request.params.file.slice(0, -'.zip'.length), now()),
  );
}
