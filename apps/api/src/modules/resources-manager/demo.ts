/**
 * The resources manager's demo data: a few folders (brand assets, media kits, legal templates,
 * supply price lists) and files owned by the demo users: generated banners and a logo (PNG, sharp
 * from SVG shapes), PDFs (pdfkit) and a CSV, with their upload audited as the owner. Idempotent:
 * nothing is added once a folder exists.
 */
import { ALLOWED_TYPES } from '@backoffice/core/files';
import { count, like } from 'drizzle-orm';
import crypto from 'node:crypto';
import { Readable } from 'node:stream';
import PDFDocument from 'pdfkit';
import sharp from 'sharp';
import type { Config } from '../../config.ts';
import type { Database, Db } from '../../db/client.ts';
import { auditLog, users } from '../../db/schema.ts';
import { resourceFiles, resourceFolders } from '../../db/schema-files.ts';
import { RESOURCES_PREFIX, resourcesStorageOf } from '../../lib/storage/resources.ts';
import { FONT_BOLD, FONT_REGULAR, pdfBytes, registerInvoiceFonts } from '../invoices/pdf/fonts.ts';
import { FILE_ENTITY } from './service.ts';

/** A banner or logo: flat shapes in the brand's colours (no text: no font needed). */
export async function demoPng(
  width: number,
  height: number,
  colours: [string, string, string],
): Promise<Buffer> {
  const [a, b, c] = colours;
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}">
    <defs><linearGradient id="g" x1="0" y1="0" x2="1" y2="1"><stop offset="0" stop-color="${a}"/><stop offset="1" stop-color="${b}"/></linearGradient></defs>
    <rect width="100%" height="100%" fill="url(#g)"/>
    <circle cx="${Math.round(width * 0.78)}" cy="${Math.round(height * 0.5)}" r="${Math.round(Math.min(width, height) * 0.32)}" fill="${c}" opacity="0.85"/>
    <rect x="${Math.round(width * 0.08)}" y="${Math.round(height * 0.38)}" width="${Math.round(width * 0.45)}" height="${Math.round(height * 0.1)}" rx="4" fill="#ffffff" opacity="0.9"/>
    <rect x="${Math.round(width * 0.08)}" y="${Math.round(height * 0.55)}" width="${Math.round(width * 0.3)}" height="${Math.round(height * 0.07)}" rx="4" fill="#ffffff" opacity="0.6"/>
  </svg>`;
  return sharp(Buffer.from(svg)).png({ compressionLevel: 9 }).toBuffer();
}

/** A one-page PDF with a title and paragraphs. */
export async function demoPdf(title: string, paragraphs: readonly string[]): Promise<Buffer> {
  const pdf = new PDFDocument({
    size: 'A4',
    margin: 56,
    font: '',
    info: { Title: title, Creator: 'Back Office demo data' },
  });
  registerInvoiceFonts(pdf);
  const done = pdfBytes(pdf);
  pdf.font(FONT_BOLD).fontSize(20).text(title);
  pdf.moveDown();
  pdf.font(FONT_REGULAR).fontSize(11);
  for (const p of paragraphs) {
    pdf.text(p, { align: 'justify' });
    pdf.moveDown(0.6);
  }
  pdf.end();
  return done;
}

interface DemoFile {
  folder: string | null;
  name: string;
  owner: string;
  daysAgo: number;
  make: () => Promise<Buffer>;
}

const FOLDERS: readonly { name: string; parent: string | null; owner: string }[] = [
  { name: 'Brand assets', parent: null, owner: 'marketing' },
  { name: 'Logos', parent: 'Brand assets', owner: 'marketing' },
  { name: 'Media kits', parent: null, owner: 'marketing' },
  { name: 'Legal templates', parent: null, owner: 'admin' },
  { name: 'Supply price lists', parent: null, owner: 'ssp.lead' },
];

const FILES: readonly DemoFile[] = [
  {
    folder: 'Logos',
    name: 'backoffice-logo-dark.png',
    owner: 'marketing',
    daysAgo: 40,
    make: () => demoPng(512, 512, ['#0b1f3a', '#1d4f91', '#f5a623']),
  },
  {
    folder: 'Logos',
    name: 'backoffice-logo-light.png',
    owner: 'marketing',
    daysAgo: 40,
    make: () => demoPng(512, 512, ['#ffffff', '#dce8f7', '#1d4f91']),
  },
  {
    folder: 'Brand assets',
    name: 'Black Friday 300x250.png',
    owner: 'marketing',
    daysAgo: 6,
    make: () => demoPng(300, 250, ['#111111', '#3a3a3a', '#e63946']),
  },
  {
    folder: 'Brand assets',
    name: 'Black Friday 728x90.png',
    owner: 'marketing',
    daysAgo: 6,
    make: () => demoPng(728, 90, ['#111111', '#3a3a3a', '#e63946']),
  },
  {
    folder: 'Brand assets',
    name: 'Spring CTV campaign 970x250.png',
    owner: 'demand.lead',
    daysAgo: 21,
    make: () => demoPng(970, 250, ['#2a9d8f', '#8ecae6', '#ffb703']),
  },
  {
    folder: 'Media kits',
    name: 'Media kit 2026 EN.pdf',
    owner: 'marketing',
    daysAgo: 14,
    make: () =>
      demoPdf('Media kit 2026', [
        'Premium display, video and CTV inventory across 1,200 European publishers, reaching 180 million monthly unique users.',
        'Formats: IAB standard display (300x250, 728x90, 970x250, 300x600), outstream and instream video (VAST 4.x), CTV, and rich media.',
        'Buying: open auction, private marketplace deals and programmatic guaranteed through every major DSP.',
      ]),
  },
  {
    folder: 'Legal templates',
    name: 'Standard IO terms 2026.pdf',
    owner: 'admin',
    daysAgo: 30,
    make: () =>
      demoPdf('Standard insertion order terms', [
        '1. Scope. These terms govern every insertion order between the advertiser, its agency and the company.',
        '2. Billing. Invoices are issued monthly on the delivered impressions as reported by the company ad server; payment is due within 45 days.',
        '3. Discrepancies. A discrepancy above 10% between the parties’ figures is reviewed in good faith within 30 days of the invoice.',
      ]),
  },
  {
    folder: 'Legal templates',
    name: 'Data processing agreement.pdf',
    owner: 'admin',
    daysAgo: 55,
    make: () =>
      demoPdf('Data processing agreement', [
        'The processor processes personal data only on documented instructions from the controller, under Article 28 GDPR.',
        'Sub-processors are listed in Annex III; the controller is informed thirty days before any change.',
      ]),
  },
  {
    folder: 'Supply price lists',
    name: 'Publisher floor prices Q4.csv',
    owner: 'ssp.lead',
    daysAgo: 3,
    make: async () =>
      Buffer.from(
        'publisher;site;format;floor_eur\n' +
          'Prensa Ibérica Digital;elperiodico.com;300x250;0.85\n' +
          'Prensa Ibérica Digital;elperiodico.com;728x90;0.60\n' +
          'Gruppo Editoriale Nord;ilnord.it;300x600;1.20\n' +
          'Rheinland Medien GmbH;rheinland-news.de;970x250;1.45\n',
        'utf-8',
      ),
  },
  {
    folder: null,
    name: 'Team offsite 2026.png',
    owner: 'marketing',
    daysAgo: 1,
    make: () => demoPng(640, 360, ['#6a4c93', '#1982c4', '#8ac926']),
  },
];

export async function seedResourcesManagerDemo(
  database: Database,
  config: Pick<Config, 'storageDir' | 'resourcesStorage'>,
  now = Date.now(),
): Promise<number> {
  const d: Db = database.db;
  const [existing] = await d.select({ n: count() }).from(resourceFolders);
  if (Number(existing?.n ?? 0) > 0) return 0;
  const people = await d
    .select({ id: users.id, mail: users.mail })
    .from(users)
    .where(like(users.mail, '%@%'));
  const idOf = (local: string) => people.find((p) => p.mail.startsWith(`${local}@`))?.id ?? null;
  const storage = resourcesStorageOf(config);
  const at = (days: number) => new Date(now - days * 86_400_000);

  // The bytes first (outside the transaction: sharp and pdfkit take a moment).
  const made = await Promise.all(
    FILES.map(async (f) => ({
      f,
      data: await f.make(),
      key: `${RESOURCES_PREFIX}/${crypto.randomBytes(16).toString('hex')}`,
    })),
  );
  for (const m of made) await storage.put(m.key, Readable.from([m.data]));

  await d.transaction(async (tx) => {
    const t = tx as unknown as Db;
    const folderIds = new Map<string, number>();
    for (const f of FOLDERS) {
      const owner = idOf(f.owner);
      const [row] = await t
        .insert(resourceFolders)
        .values({
          name: f.name,
          parentId: f.parent ? folderIds.get(f.parent)! : null,
          createdBy: owner,
          updatedBy: owner,
          createdAt: at(60),
          updatedAt: at(60),
        })
        .returning({ id: resourceFolders.id });
      folderIds.set(f.name, row!.id);
    }
    for (const { f, data, key } of made) {
      const ext = f.name.slice(f.name.lastIndexOf('.') + 1).toLowerCase();
      const type = ALLOWED_TYPES[ext === 'jpeg' ? 'jpg' : ext]!;
      const owner = idOf(f.owner);
      const [row] = await t
        .insert(resourceFiles)
        .values({
          name: f.name,
          folderId: f.folder ? folderIds.get(f.folder)! : null,
          kind: type.kind,
          mime: type.mime,
          bytes: data.length,
          sha256: crypto.createHash('sha256').update(data).digest('hex'),
          storageKey: key,
          ownerId: owner,
          createdBy: owner,
          updatedBy: owner,
          createdAt: at(f.daysAgo),
          updatedAt: at(f.daysAgo),
        })
        .returning({ id: resourceFiles.id });
      await t.insert(auditLog).values({
        at: at(f.daysAgo),
        actorId: owner,
        ip: '10.20.0.31',
        action: `${FILE_ENTITY}.upload`,
        entity: FILE_ENTITY,
        entityId: String(row!.id),
        after: {
          name: f.name,
          folder_id: f.folder ? folderIds.get(f.folder)! : null,
          kind: type.kind,
          mime: type.mime,
          bytes: data.length,
        },
      });
    }
  });
  return made.length;
}
