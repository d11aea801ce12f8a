/**
 * The invoice PDF's fonts: DejaVu Sans and DejaVu Sans Bold from the `dejavu-fonts-ttf` package,
 * embedded (subset) in every document. pdfkit's standard 14 fonts are never used: they are not
 * embedded and cover Latin-1 only. The files are read once per process and reused.
 */
import fs from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';

export const FONT_REGULAR = 'DejaVuSans';
export const FONT_BOLD = 'DejaVuSans-Bold';

export interface InvoiceFonts {
  regular: Buffer;
  bold: Buffer;
}

let cached: InvoiceFonts | null = null;

/** The folder of the TTF files, resolved through node's module resolution (source and bundled dist alike). */
export function dejaVuFontDir(): string {
  const pkg = createRequire(import.meta.url).resolve('dejavu-fonts-ttf/package.json');
  return path.join(path.dirname(pkg), 'ttf');
}

export function invoiceFonts(): InvoiceFonts {
  if (!cached) {
    const dir = dejaVuFontDir();
    cached = {
      regular: fs.readFileSync(path.join(dir, 'DejaVuSans.ttf')),
      bold: fs.readFileSync(path.join(dir, 'DejaVuSans-Bold.ttf')),
    };
  }
  return cached;
}

/**
 * The fonts as pdfkit parsed them (fontkit objects), kept from the first document: parsing the
 * two TTF files again for each document took most of a render (~70 ms of ~100). pdfkit accepts a
 * parsed font wherever it takes a file (`registerFont` with an object that has `layout`), and
 * creates a fresh subset of it for each document, so the output is the same either way.
 */
const parsedFonts = new Map<string, object>();

type FontSource = Parameters<PDFKit.PDFDocument['registerFont']>[1];

export function registerInvoiceFonts(pdf: PDFKit.PDFDocument): void {
  const fonts = invoiceFonts();
  pdf.registerFont(FONT_REGULAR, (parsedFonts.get(FONT_REGULAR) ?? fonts.regular) as FontSource);
  pdf.registerFont(FONT_BOLD, (parsedFonts.get(FONT_BOLD) ?? fonts.bold) as FontSource);
}

/** Keeps the parsed fonts of a document that used them (pdfkit's internal `_fontFamilies`). */
export function keepParsedFonts(pdf: PDFKit.PDFDocument): void {
  if (parsedFonts.size === 2) return;
  const families = (pdf as unknown as { _fontFamilies?: Record<string, { font?: { layout?: unknown } }> })
    ._fontFamilies;
  for (const name of [FONT_REGULAR, FONT_BOLD]) {
    const font = families?.[name]?.font;
    if (font && typeof font.layout === 'function') parsedFonts.set(name, font);
  }
}

/**
 * The document's bytes once it ends: call before drawing (pdfkit streams as it goes) and await
 * after `pdf.end()`. Every PDF of the app (invoices, payout statements, legal documents) uses it.
 */
export function pdfBytes(pdf: NodeJS.EventEmitter): Promise<Buffer> {
  const chunks: Buffer[] = [];
  return new Promise<Buffer>((resolve, reject) => {
    pdf.on('data', (chunk: Buffer) => chunks.push(chunk));
    pdf.on('end', () => resolve(Buffer.concat(chunks)));
    pdf.on('error', reject);
  });
}
