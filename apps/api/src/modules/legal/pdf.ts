/**
 * The legal document's PDF (docs/decisions/046-legal-tool.md): pdfkit with DejaVu Sans embedded,
 * as the invoices (decision 025, whose font loading this reuses), so accents, ñ, º, € and quotes
 * print and the text stays extractable. A4; the title, a reference line (template and version,
 * date), the template's blocks (headings, numbered clauses, their numbered paragraphs, list
 * items) flowing line by line over as many pages as they need, the signature block of both
 * parties (kept together on one page), and on every page a footer with the title and "Page 1 of 3".
 * Pure and deterministic: the same input gives the same bytes (dates from the document's date).
 */
import { translate, type MessageKey } from '@backoffice/core/i18n/catalogues';
import type { LegalBlock, LegalLanguage } from '@backoffice/core/legal';
import PDFDocument from 'pdfkit';
import { FONT_BOLD, FONT_REGULAR, keepParsedFonts, pdfBytes, registerInvoiceFonts } from '../invoices/pdf/fonts.ts';
import { formatDocDate } from '../invoices/pdf/format.ts';

export interface LegalPdfParty {
  name: string;
  signatory: string | null;
  signatoryTitle: string | null;
}

export interface LegalPdfInput {
  language: LegalLanguage;
  title: string;
  /** The document's date (YYYY-MM-DD). */
  date: string;
  /** Template name and version, printed under the title. */
  reference: string;
  blocks: LegalBlock[];
  /** Our company first, then the counterparty. */
  parties: [LegalPdfParty, LegalPdfParty];
}

const PAGE_WIDTH = 595.28;
const PAGE_HEIGHT = 841.89;
const MARGIN = 56;
const RIGHT = PAGE_WIDTH - MARGIN;
const WIDTH = RIGHT - MARGIN;
const CONTENT_BOTTOM = PAGE_HEIGHT - 70;
const FOOTER_Y = PAGE_HEIGHT - 48;
const NUMBER_WIDTH = 30;
const COLOR = { text: '#1d232b', muted: '#5d6876', accent: '#1f3a5f', rule: '#cfd7e1' };
const PAGE_OPTIONS = {
  size: 'A4',
  margins: { top: MARGIN, left: MARGIN, right: MARGIN, bottom: 20 },
} as const;

interface Style {
  bold?: boolean;
  size: number;
  color?: string;
}

export async function renderLegalPdf(input: LegalPdfInput): Promise<Buffer> {
  const t = (key: MessageKey, params?: Record<string, string | number>) =>
    translate(input.language, key, params);
  const at = new Date(`${input.date}T00:00:00Z`);
  const pdf = new PDFDocument({
    ...PAGE_OPTIONS,
    autoFirstPage: false,
    bufferPages: true,
    font: '',
    lang: input.language,
    displayTitle: true,
    info: {
      Title: input.title,
      Author: input.parties[0].name,
      Subject: `${input.title} — ${input.parties[1].name}`,
      Creator: 'Backoffice legal tool',
      Producer: 'Backoffice legal tool (pdfkit)',
      CreationDate: at,
      ModDate: at,
    },
  });
  registerInvoiceFonts(pdf);
  const done = pdfBytes(pdf);
  new LegalLayout(pdf, input, t).draw();
  keepParsedFonts(pdf);
  pdf.end();
  return done;
}

class LegalLayout {
  private y = MARGIN;

  constructor(
    private readonly pdf: PDFKit.PDFDocument,
    private readonly input: LegalPdfInput,
    private readonly t: (key: MessageKey, params?: Record<string, string | number>) => string,
  ) {}

  draw(): void {
    this.pdf.addPage(PAGE_OPTIONS);
    this.header();
    for (const block of this.input.blocks) this.block(block);
    this.signatures();
    this.footers();
  }

  private style(s: Style): void {
    this.pdf
      .font(s.bold ? FONT_BOLD : FONT_REGULAR)
      .fontSize(s.size)
      .fillColor(s.color ?? COLOR.text);
  }

  private lineHeight(s: Style): number {
    this.style(s);
    return this.pdf.currentLineHeight(true) + 2;
  }

  /** Lines of a text within `width`, broken at spaces (a word wider than the line is cut). */
  private lines(text: string, width: number, s: Style): string[] {
    this.style(s);
    const out: string[] = [];
    let line = '';
    for (const word of text.split(' ')) {
      const next = line ? `${line} ${word}` : word;
      if (line && this.pdf.widthOfString(next) > width) {
        out.push(line);
        line = word;
      } else line = next;
      // A word wider than the line (a long URL): cut it by characters.
      while (this.pdf.widthOfString(line) > width && line.length > 1) {
        let cut = line.length - 1;
        while (cut > 1 && this.pdf.widthOfString(line.slice(0, cut)) > width) cut--;
        out.push(line.slice(0, cut));
        line = line.slice(cut);
      }
    }
    if (line) out.push(line);
    return out;
  }

  /** A new page when `height` does not fit below the cursor. */
  private ensure(height: number): void {
    if (this.y + height <= CONTENT_BOTTOM) return;
    this.pdf.addPage(PAGE_OPTIONS);
    this.y = MARGIN;
  }

  /** Writes a text line by line at x (pages break between lines); `lead` prints before the first line. */
  private paragraph(
    text: string,
    s: Style,
    opts: { x?: number; lead?: string; leadStyle?: Style; after?: number; keepWithNext?: number } = {},
  ): void {
    const x = opts.x ?? MARGIN;
    const width = RIGHT - x;
    const lines = this.lines(text, width, s);
    const h = this.lineHeight(s);
    // A heading stays with the first lines of what follows it.
    this.ensure(h * Math.min(lines.length, 2) + (opts.keepWithNext ?? 0));
    lines.forEach((line, i) => {
      this.ensure(h);
      if (i === 0 && opts.lead) {
        this.style(opts.leadStyle ?? s);
        this.pdf.text(opts.lead, MARGIN, this.y, { lineBreak: false });
      }
      this.style(s);
      this.pdf.text(line, x, this.y, { lineBreak: false });
      this.y += h;
    });
    this.y += opts.after ?? 6;
  }

  private header(): void {
    this.pdf.rect(0, 0, PAGE_WIDTH, 6).fill(COLOR.accent);
    this.y = MARGIN - 10;
    this.paragraph(this.input.parties[0].name, { size: 9, color: COLOR.muted }, { after: 4 });
    this.paragraph(this.input.title, { bold: true, size: 18, color: COLOR.accent }, { after: 4 });
    this.paragraph(
      `${this.input.reference} · ${formatDocDate(this.input.date, this.input.language)}`,
      { size: 8.5, color: COLOR.muted },
      { after: 8 },
    );
    this.pdf.moveTo(MARGIN, this.y).lineTo(RIGHT, this.y).lineWidth(0.6).strokeColor(COLOR.rule).stroke();
    this.y += 14;
  }

  private block(b: LegalBlock): void {
    switch (b.kind) {
      case 'heading':
        this.y += 6;
        this.paragraph(
          b.text,
          { bold: true, size: 12.5, color: COLOR.accent },
          { after: 6, keepWithNext: 30 },
        );
        return;
      case 'clause':
        this.y += 4;
        this.paragraph(
          b.text,
          { bold: true, size: 11 },
          { x: MARGIN + NUMBER_WIDTH, lead: `${b.number}.`, after: 5, keepWithNext: 28 },
        );
        return;
      case 'paragraph':
        if (b.number)
          this.paragraph(
            b.text,
            { size: 10 },
            { x: MARGIN + NUMBER_WIDTH, lead: b.number, leadStyle: { size: 10, color: COLOR.muted } },
          );
        else this.paragraph(b.text, { size: 10 });
        return;
      case 'item': {
        const h = this.lineHeight({ size: 10 });
        this.ensure(h * 2);
        this.pdf.circle(MARGIN + NUMBER_WIDTH + 4, this.y + h / 2 - 1, 1.6).fill(COLOR.text);
        this.paragraph(b.text, { size: 10 }, { x: MARGIN + NUMBER_WIDTH + 12, after: 3 });
        return;
      }
    }
  }

  private signatures(): void {
    const s: Style = { size: 9.5 };
    const h = this.lineHeight(s);
    const columnWidth = (WIDTH - 30) / 2;
    const blockHeight = 30 + h * 2 + 44 + h * 4;
    this.y += 14;
    this.ensure(blockHeight);
    this.style({ size: 10 });
    this.pdf.text(this.t('legal.pdf.in_witness'), MARGIN, this.y, { width: WIDTH, lineBreak: true });
    this.y = this.pdf.y + 16;
    const top = this.y;
    this.input.parties.forEach((party, i) => {
      const x = MARGIN + i * (columnWidth + 30);
      let y = top;
      this.style({ bold: true, size: 10 });
      this.pdf.text(this.t('legal.pdf.for', { name: party.name }), x, y, { width: columnWidth });
      y = this.pdf.y + 40;
      this.pdf
        .moveTo(x, y)
        .lineTo(x + columnWidth, y)
        .lineWidth(0.6)
        .strokeColor(COLOR.muted)
        .stroke();
      y += 6;
      const row = (label: string, value: string | null) => {
        this.style({ size: 9.5, color: COLOR.muted });
        this.pdf.text(`${label}: `, x, y, { lineBreak: false, continued: false });
        const labelWidth = this.pdf.widthOfString(`${label}: `);
        this.style(s);
        if (value) this.pdf.text(value, x + labelWidth, y, { width: columnWidth - labelWidth });
        else
          this.pdf
            .moveTo(x + labelWidth, y + h - 3)
            .lineTo(x + columnWidth, y + h - 3)
            .lineWidth(0.4)
            .strokeColor(COLOR.rule)
            .stroke();
        y += h + 2;
      };
      row(this.t('legal.pdf.signature'), null);
      row(this.t('legal.pdf.name'), party.signatory);
      row(this.t('legal.pdf.signatory_title'), party.signatoryTitle);
      row(this.t('legal.pdf.date'), null);
      this.y = Math.max(this.y, y);
    });
  }

  private footers(): void {
    const range = this.pdf.bufferedPageRange();
    for (let i = 0; i < range.count; i++) {
      this.pdf.switchToPage(range.start + i);
      this.pdf
        .moveTo(MARGIN, FOOTER_Y - 6)
        .lineTo(RIGHT, FOOTER_Y - 6)
        .lineWidth(0.4)
        .strokeColor(COLOR.rule)
        .stroke();
      this.style({ size: 8, color: COLOR.muted });
      const page = this.t('legal.pdf.page', { page: i + 1, pages: range.count });
      const pageWidth = this.pdf.widthOfString(page);
      const left =
        this.lines(`${this.input.title} — ${this.input.parties[1].name}`, WIDTH - pageWidth - 20, {
          size: 8,
        })[0] ?? '';
      this.style({ size: 8, color: COLOR.muted });
      this.pdf.text(left, MARGIN, FOOTER_Y, { lineBreak: false });
      this.pdf.text(page, RIGHT - pageWidth, FOOTER_Y, { lineBreak: false });
    }
  }
}
