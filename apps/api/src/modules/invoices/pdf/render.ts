/**
 * The invoice / credit note PDF (issue 22): a pure rendering of an `InvoiceDocument`, no database.
 * A4, DejaVu Sans embedded, every label from the `invoice.doc.*` catalogue in the counterparty's
 * language. Deterministic: the same document gives the same bytes (the PDF's dates come from the
 * issue date, the producer is fixed, pdfkit derives the file ID from that info).
 *
 * Layout (points; A4 is 595.28 × 841.89): a header band (VERI*FACTU QR at the top left when the
 * document has one, the issuer's name, the title and the document's dates), issuer and customer
 * side by side, a credit note's reference, the lines table (its header repeated on each page it
 * flows onto), the totals box with the tax mentions beside it, the payment box and the notes. Each
 * page's footer names the issuer and the document and numbers the page ("1 / 2").
 */
import { translate, type MessageKey } from '@backoffice/core/i18n/catalogues';
import type { InvoiceDocument, InvoiceParty } from '@backoffice/core/invoice-document';
import PDFDocument from 'pdfkit';
import { FONT_BOLD, FONT_REGULAR, keepParsedFonts, pdfBytes, registerInvoiceFonts } from './fonts.ts';
import {
  countryName,
  formatDocDate,
  formatDocMoney,
  formatIban,
  formatPaymentTerms,
  formatPercent,
  formatQuantity,
  vatNumber,
} from './format.ts';
import { MM, QR_SYMBOL_MM, drawQr, qrRuns } from './qr.ts';

const PAGE_WIDTH = 595.28;
const PAGE_HEIGHT = 841.89;
const MARGIN = 50;
const RIGHT = PAGE_WIDTH - MARGIN;
const CONTENT_WIDTH = RIGHT - MARGIN;
/** Content stops here; the footer sits below. */
const CONTENT_BOTTOM = PAGE_HEIGHT - 72;
const FOOTER_Y = PAGE_HEIGHT - 52;
const LINE_GAP = 1.5;
const QR_SIZE = QR_SYMBOL_MM * MM;

const COLOR = {
  accent: '#1f3a5f',
  text: '#1d232b',
  muted: '#5d6876',
  band: '#eef2f7',
  rule: '#cfd7e1',
  zebra: '#f7f9fb',
  white: '#ffffff',
};

/** Columns of the lines table: description, quantity (impressions), amount. */
const COLUMNS = {
  description: { x: MARGIN, width: 290 },
  quantity: { x: MARGIN + 290, width: 95 },
  amount: { x: MARGIN + 385, width: CONTENT_WIDTH - 385 },
};
const CELL_PAD = 7;

interface TextStyle {
  bold?: boolean;
  size?: number;
  color?: string;
  align?: 'left' | 'right' | 'center';
  width?: number;
}

/** Renders the document to a PDF. Pure: the same document gives the same bytes. */
export async function renderInvoicePdf(doc: InvoiceDocument): Promise<Buffer> {
  const t = (key: MessageKey, params?: Record<string, string | number>) =>
    translate(doc.language, key, params);
  const title = doc.kind === 'credit_note' ? t('invoice.doc.title.credit_note') : t('invoice.doc.title');
  const issued = new Date(`${doc.issue_date}T00:00:00Z`);
  const pdf = new PDFDocument({
    size: 'A4',
    margins: { top: MARGIN, left: MARGIN, right: MARGIN, bottom: 20 },
    autoFirstPage: false,
    bufferPages: true,
    // No default font: pdfkit would load Helvetica (standard 14, not embedded).
    font: '',
    lang: doc.language,
    displayTitle: true,
    info: {
      Title: `${title} ${doc.number}`,
      Author: doc.issuer.legal_name,
      Subject: `${title} ${doc.number} — ${doc.customer.legal_name}`,
      Creator: 'Backoffice invoices',
      Producer: 'Backoffice invoices (pdfkit)',
      CreationDate: issued,
      ModDate: issued,
    },
  });
  registerInvoiceFonts(pdf);

  const done = pdfBytes(pdf);
  new InvoiceLayout(pdf, doc, title, t).draw();
  keepParsedFonts(pdf);
  pdf.end();
  return done;
}

class InvoiceLayout {
  private y = MARGIN;

  constructor(
    private readonly pdf: PDFKit.PDFDocument,
    private readonly doc: InvoiceDocument,
    private readonly title: string,
    private readonly t: (key: MessageKey, params?: Record<string, string | number>) => string,
  ) {}

  draw(): void {
    this.pdf.addPage({ size: 'A4', margins: { top: MARGIN, left: MARGIN, right: MARGIN, bottom: 20 } });
    this.header();
    this.parties();
    this.correction();
    this.lines();
    this.totals();
    // A credit note asks for no payment: what it credits lowers what the invoice is owed.
    if (this.doc.kind !== 'credit_note') this.payment();
    this.notes();
    this.footers();
  }

  // ---- text helpers -------------------------------------------------------------------------

  private style(s: TextStyle): void {
    this.pdf
      .font(s.bold ? FONT_BOLD : FONT_REGULAR)
      .fontSize(s.size ?? 9)
      .fillColor(s.color ?? COLOR.text);
  }

  private heightOf(text: string, s: TextStyle): number {
    const wrapped = this.wrap(text, s);
    this.style(s);
    return this.pdf.heightOfString(wrapped, { width: s.width, lineGap: LINE_GAP });
  }

  /**
   * Breaks text into lines at spaces only (pdfkit would also break after a hyphen: "e-" /
   * "office", "M-" / "562.300"); a word wider than the whole width is left to pdfkit.
   */
  private wrap(text: string, s: TextStyle): string {
    const width = s.width;
    if (width === undefined || this.widthOf(text, s) <= width - 0.5) return text;
    const lines: string[] = [];
    for (const paragraph of text.split('\n')) {
      let line = '';
      for (const word of paragraph.split(' ')) {
        const next = line ? `${line} ${word}` : word;
        // pdfkit measures a line with its break, and a newline is as wide as a glyph.
        if (line && this.widthOf(`${next}\n`, s) > width - 0.5) {
          lines.push(line);
          line = word;
        } else line = next;
      }
      lines.push(line);
    }
    return lines.join('\n');
  }

  private widthOf(text: string, s: TextStyle): number {
    this.style(s);
    return this.pdf.widthOfString(text);
  }

  /** Writes text at (x, y) and returns its height. */
  private write(text: string, x: number, y: number, s: TextStyle): number {
    const wrapped = this.wrap(text, s);
    this.style(s);
    this.pdf.text(wrapped, x, y, { width: s.width, align: s.align ?? 'left', lineGap: LINE_GAP });
    return this.pdf.y - y;
  }

  private money(amount: string): string {
    return formatDocMoney(amount, this.doc.currency, this.doc.language);
  }

  private date(iso: string): string {
    return formatDocDate(iso, this.doc.language);
  }

  // ---- pages --------------------------------------------------------------------------------

  /** Starts a new page when `height` does not fit below the cursor; true when it did. */
  private ensure(height: number): boolean {
    if (this.y + height <= CONTENT_BOTTOM) return false;
    this.pdf.addPage({ size: 'A4', margins: { top: MARGIN, left: MARGIN, right: MARGIN, bottom: 20 } });
    this.continuationHeader();
    return true;
  }

  private stripe(height: number): void {
    this.pdf.rect(0, 0, PAGE_WIDTH, height).fill(COLOR.band);
    this.pdf.rect(0, 0, PAGE_WIDTH, 6).fill(COLOR.accent);
  }

  private continuationHeader(): void {
    this.stripe(44);
    const text = this.t('invoice.doc.continued', { title: this.title, number: this.doc.number });
    this.write(text, MARGIN, 19, { bold: true, size: 10, color: COLOR.accent, width: CONTENT_WIDTH / 2 });
    this.write(this.doc.issuer.legal_name, MARGIN + CONTENT_WIDTH / 2, 20, {
      size: 8.5,
      color: COLOR.muted,
      width: CONTENT_WIDTH / 2,
      align: 'right',
    });
    this.y = 66;
  }

  // ---- first page header ----------------------------------------------------------------------

  private header(): void {
    const { doc, t } = this;
    const top = 30;
    const metaX = RIGHT - 240;
    const metaWidth = RIGHT - metaX;

    // Measure both sides first: the band is drawn under them.
    const verifactu = doc.verifactu;
    const qr = verifactu ? qrRuns(verifactu.qr_url) : null;
    const quiet = qr ? (QR_SIZE / qr.size) * 4 : 0;
    const qrBox = QR_SIZE + 2 * quiet;
    const legendStyle: TextStyle = { bold: true, size: 9, color: COLOR.text, width: qrBox, align: 'center' };
    const verifiableStyle: TextStyle = { size: 6.5, color: COLOR.text, width: qrBox, align: 'center' };
    const headingStyle: TextStyle = { size: 7.5, color: COLOR.text, width: qrBox, align: 'center' };
    const qrHeading = t('invoice.doc.verifactu.qr_heading');
    const legend = t('invoice.doc.verifactu.legend');
    const verifiable = t('invoice.doc.verifactu.verifiable');
    const qrHeight = verifactu
      ? this.heightOf(qrHeading, headingStyle) +
        2 +
        qrBox +
        3 +
        this.heightOf(legend, legendStyle) +
        1 +
        this.heightOf(verifiable, verifiableStyle)
      : 0;

    const letterX = verifactu ? MARGIN + qrBox + 18 : MARGIN;
    const letterWidth = metaX - letterX - 20;
    const nameStyle: TextStyle = { bold: true, size: qr ? 12 : 14, color: COLOR.accent, width: letterWidth };
    const subStyle: TextStyle = { size: 8, color: COLOR.muted, width: letterWidth };
    const issuer = doc.issuer;
    const subLines = [issuer.address, this.cityLine(issuer), issuer.email].filter((s): s is string =>
      Boolean(s),
    );
    const letterTop = verifactu ? top + this.heightOf(qrHeading, headingStyle) + 2 : top + 4;
    const letterHeight =
      this.heightOf(issuer.legal_name, nameStyle) +
      4 +
      subLines.reduce((h, s) => h + this.heightOf(s, subStyle), 0);

    const titleSize = this.fitSize(this.title, { bold: true, size: 22 }, metaWidth);
    const titleStyle: TextStyle = {
      bold: true,
      size: titleSize,
      color: COLOR.accent,
      width: metaWidth,
      align: 'right',
    };
    const meta: [string, string][] = [
      [t('invoice.doc.number'), doc.number],
      [t('invoice.doc.issue_date'), this.date(doc.issue_date)],
      [t('invoice.doc.due_date'), this.date(doc.due_date)],
      [
        t('invoice.doc.period'),
        t('invoice.doc.period.range', { start: this.date(doc.period_start), end: this.date(doc.period_end) }),
      ],
      [t('invoice.doc.currency'), doc.currency],
    ];
    const labelStyle: TextStyle = { size: 8, color: COLOR.muted };
    const valueStyle: TextStyle = { bold: true, size: 8.5, color: COLOR.text };
    const labelWidth = Math.max(...meta.map(([label]) => this.widthOf(label, labelStyle))) + 10;
    const valueWidth = metaWidth - labelWidth;
    const metaRowHeight = (value: string) =>
      Math.max(this.heightOf(value, { ...valueStyle, width: valueWidth }), 11) + 2.5;
    const titleHeight = this.heightOf(this.title, titleStyle);
    const metaHeight = titleHeight + 6 + meta.reduce((h, [, v]) => h + metaRowHeight(v), 0);

    const bottom = top + Math.max(qrHeight, letterTop - top + letterHeight, metaHeight) + 16;
    this.stripe(bottom);

    // VERI*FACTU, first on the page (top left): "QR tributario:", the QR on its quiet zone, the
    // VERI*FACTU legend and the verifiable sentence.
    if (qr) {
      let y = top;
      y += this.write(qrHeading, MARGIN, y, headingStyle) + 2;
      drawQr(this.pdf, qr, MARGIN + quiet, y + quiet, QR_SIZE);
      y += qrBox + 3;
      y += this.write(legend, MARGIN, y, legendStyle) + 1;
      this.write(verifiable, MARGIN, y, verifiableStyle);
    }

    // The issuer's name as letterhead.
    let y = letterTop;
    y += this.write(issuer.legal_name, letterX, y, nameStyle) + 4;
    for (const line of subLines) y += this.write(line, letterX, y, subStyle);

    // Title and the document's dates.
    y = top;
    y += this.write(this.title, metaX, y, titleStyle) + 6;
    for (const [label, value] of meta) {
      const h = metaRowHeight(value);
      this.write(label, metaX, y + 0.5, { ...labelStyle, width: labelWidth });
      this.write(value, metaX + labelWidth, y, { ...valueStyle, width: valueWidth, align: 'right' });
      y += h;
    }

    this.y = bottom + 22;
  }

  /** The largest size up to `style.size` at which `text` fits on one line of `width`. */
  private fitSize(text: string, style: TextStyle, width: number): number {
    let size = style.size ?? 12;
    while (size > 12 && this.widthOf(text, { ...style, size }) > width) size -= 1;
    return size;
  }

  private cityLine(party: InvoiceParty): string {
    const cityFirst = ['US', 'CA', 'GB', 'AU'].includes(party.country.toUpperCase());
    return cityFirst ? `${party.city} ${party.postal_code}` : `${party.postal_code} ${party.city}`;
  }

  // ---- parties ------------------------------------------------------------------------------

  private parties(): void {
    const { doc, t } = this;
    const gap = 24;
    const width = (CONTENT_WIDTH - gap) / 2;
    const reverse = doc.tax_treatment === 'reverse_charge';
    const taxLine = (party: InvoiceParty) =>
      reverse
        ? `${t('invoice.doc.vat_id')}: ${vatNumber(party)}`
        : `${t('invoice.doc.tax_id')}: ${party.tax_id}`;
    const blocks: { caption: string; party: InvoiceParty; extra: string[] }[] = [
      {
        caption: t('invoice.doc.issuer'),
        party: doc.issuer,
        extra: doc.issuer.registry ? [doc.issuer.registry] : [],
      },
      { caption: t('invoice.doc.customer'), party: doc.customer, extra: [] },
    ];
    const captionStyle: TextStyle = { bold: true, size: 7.5, color: COLOR.accent, width };
    const nameStyle: TextStyle = { bold: true, size: 10.5, width };
    const lineStyle: TextStyle = { size: 9, width };
    const smallStyle: TextStyle = { size: 7.5, color: COLOR.muted, width };
    const contentOf = (b: (typeof blocks)[number]) => {
      const p = b.party;
      const lines = [taxLine(p), p.address, this.cityLine(p), countryName(p.country, doc.language)];
      const small = [p.email, ...b.extra].filter((s): s is string => Boolean(s));
      return { lines, small };
    };
    const heightOf = (b: (typeof blocks)[number]) => {
      const { lines, small } = contentOf(b);
      return (
        this.heightOf(b.caption.toUpperCase(), captionStyle) +
        7 +
        this.heightOf(b.party.legal_name, nameStyle) +
        3 +
        lines.reduce((h, s) => h + this.heightOf(s, lineStyle), 0) +
        (small.length ? 3 + small.reduce((h, s) => h + this.heightOf(s, smallStyle), 0) : 0)
      );
    };
    const height = Math.max(...blocks.map(heightOf));
    this.ensure(height);
    blocks.forEach((b, i) => {
      const x = MARGIN + i * (width + gap);
      let y = this.y;
      y += this.write(b.caption.toUpperCase(), x, y, captionStyle) + 2;
      this.pdf
        .moveTo(x, y)
        .lineTo(x + width, y)
        .lineWidth(0.75)
        .stroke(COLOR.rule);
      y += 5;
      y += this.write(b.party.legal_name, x, y, nameStyle) + 3;
      const { lines, small } = contentOf(b);
      for (const line of lines) y += this.write(line, x, y, lineStyle);
      if (small.length) y += 3;
      for (const line of small) y += this.write(line, x, y, smallStyle);
    });
    this.y += height + 22;
  }

  // ---- credit note's reference --------------------------------------------------------------

  private correction(): void {
    const { doc, t } = this;
    if (!doc.corrects) return;
    const width = CONTENT_WIDTH - 24;
    const head = t('invoice.doc.corrects', {
      number: doc.corrects.number,
      date: this.date(doc.corrects.issue_date),
    });
    const reason = t('invoice.doc.corrects.reason', { reason: doc.corrects.reason });
    const headStyle: TextStyle = { bold: true, size: 9.5, width };
    const reasonStyle: TextStyle = { size: 9, width };
    const height = 8 + this.heightOf(head, headStyle) + 2 + this.heightOf(reason, reasonStyle) + 8;
    this.ensure(height);
    this.pdf.rect(MARGIN, this.y, CONTENT_WIDTH, height).fill(COLOR.band);
    this.pdf.rect(MARGIN, this.y, 3, height).fill(COLOR.accent);
    let y = this.y + 8;
    y += this.write(head, MARGIN + 14, y, headStyle) + 2;
    this.write(reason, MARGIN + 14, y, reasonStyle);
    this.y += height + 18;
  }

  // ---- lines --------------------------------------------------------------------------------

  private tableHeader(): void {
    const { t } = this;
    const height = 20;
    this.pdf.rect(MARGIN, this.y, CONTENT_WIDTH, height).fill(COLOR.accent);
    const s: TextStyle = { bold: true, size: 8, color: COLOR.white };
    const y = this.y + 6;
    const { description, quantity, amount } = COLUMNS;
    this.write(t('invoice.doc.column.description'), description.x + CELL_PAD, y, {
      ...s,
      width: description.width - 2 * CELL_PAD,
    });
    this.write(t('invoice.doc.column.quantity'), quantity.x, y, {
      ...s,
      width: quantity.width - CELL_PAD,
      align: 'right',
    });
    this.write(t('invoice.doc.column.amount'), amount.x, y, {
      ...s,
      width: amount.width - CELL_PAD,
      align: 'right',
    });
    this.y += height;
  }

  private lines(): void {
    const { doc } = this;
    const { description, quantity, amount } = COLUMNS;
    const descStyle: TextStyle = { size: 9, width: description.width - 2 * CELL_PAD };
    const numStyle: TextStyle = { size: 9 };
    this.ensure(20 + 24);
    this.tableHeader();
    doc.lines.forEach((line, i) => {
      const height = Math.max(this.heightOf(line.description, descStyle) - LINE_GAP, 11) + 12;
      if (this.ensure(height)) this.tableHeader();
      if (i % 2 === 1) this.pdf.rect(MARGIN, this.y, CONTENT_WIDTH, height).fill(COLOR.zebra);
      const y = this.y + 6;
      this.write(line.description, description.x + CELL_PAD, y, descStyle);
      this.write(formatQuantity(line.quantity, doc.language), quantity.x, y, {
        ...numStyle,
        width: quantity.width - CELL_PAD,
        align: 'right',
      });
      this.write(this.money(line.amount), amount.x, y, {
        ...numStyle,
        width: amount.width - CELL_PAD,
        align: 'right',
      });
      this.y += height;
      this.pdf.moveTo(MARGIN, this.y).lineTo(RIGHT, this.y).lineWidth(0.5).stroke(COLOR.rule);
    });
    this.y += 16;
  }

  // ---- totals and tax mentions --------------------------------------------------------------

  private totals(): void {
    const { doc, t } = this;
    const boxWidth = 285;
    const boxX = RIGHT - boxWidth;
    const pad = 8;

    interface Row {
      label: string;
      amount: string;
      kind: 'plain' | 'sub' | 'total';
    }
    const rows: Row[] = [
      { label: t('invoice.doc.lines_total'), amount: this.money(doc.lines_total), kind: 'plain' },
    ];
    for (const allowance of doc.allowances) {
      const label = t(
        allowance.reason === 'fraud' ? 'invoice.doc.allowance.fraud' : 'invoice.doc.allowance.spoofing',
      );
      rows.push({
        label: allowance.percentage
          ? t('invoice.doc.allowance.with_percentage', {
              label,
              percentage: formatPercent(allowance.percentage, doc.language),
            })
          : label,
        amount: this.money(negate(allowance.amount)),
        kind: 'plain',
      });
    }
    rows.push({ label: t('invoice.doc.base'), amount: this.money(doc.base), kind: 'sub' });
    rows.push({
      label: t('invoice.doc.vat', { rate: formatPercent(doc.vat_rate, doc.language) }),
      amount: this.money(doc.vat_amount),
      kind: 'plain',
    });
    rows.push({
      label: t('invoice.doc.total', { currency: doc.currency }),
      amount: this.money(doc.total),
      kind: 'total',
    });

    const styleOf = (row: Row): TextStyle =>
      row.kind === 'total'
        ? { bold: true, size: 10.5, color: COLOR.white }
        : { bold: row.kind === 'sub', size: 9, color: COLOR.text };
    // The amounts take the width they need; the labels the rest.
    const amountWidth = Math.max(60, ...rows.map((r) => this.widthOf(r.amount, styleOf(r)))) + 2;
    const labelWidth = boxWidth - 2 * pad - amountWidth - 8;
    const rowHeight = (row: Row) =>
      Math.max(this.heightOf(row.label, { ...styleOf(row), width: labelWidth }), 11) +
      (row.kind === 'total' ? 14 : 9);
    const boxHeight = rows.reduce((h, r) => h + rowHeight(r), 0);

    // Tax mentions beside the totals.
    const mentions: string[] = [];
    if (doc.tax_treatment === 'reverse_charge') {
      mentions.push(
        t('invoice.doc.mention.reverse_charge'),
        t('invoice.doc.mention.reverse_charge.directive'),
      );
    } else if (doc.tax_treatment === 'not_subject') {
      mentions.push(t('invoice.doc.mention.not_subject'));
    }
    const mentionWidth = boxX - MARGIN - 24;
    const mentionStyle: TextStyle = { bold: true, size: 8.5, color: COLOR.text, width: mentionWidth - 12 };
    const mentionHeight = mentions.length
      ? mentions.reduce((h, m) => h + this.heightOf(m, mentionStyle) + 5, 0) + 11
      : 0;

    this.ensure(Math.max(boxHeight, mentionHeight));
    const top = this.y;

    if (mentions.length) {
      this.pdf.rect(MARGIN, top, 3, mentionHeight).fill(COLOR.accent);
      let y = top + 6;
      for (const m of mentions) y += this.write(m, MARGIN + 12, y, mentionStyle) + 5;
    }

    let y = top;
    rows.forEach((row, i) => {
      const h = rowHeight(row);
      const s = styleOf(row);
      if (row.kind === 'total') this.pdf.rect(boxX, y, boxWidth, h).fill(COLOR.accent);
      else if (i % 2 === 0) this.pdf.rect(boxX, y, boxWidth, h).fill(COLOR.zebra);
      if (row.kind === 'sub') {
        this.pdf.moveTo(boxX, y).lineTo(RIGHT, y).lineWidth(0.75).stroke(COLOR.rule);
      }
      const textY = y + (row.kind === 'total' ? 7 : 4.5);
      this.write(row.label, boxX + pad, textY, { ...s, width: labelWidth });
      this.write(row.amount, RIGHT - pad - amountWidth, textY, { ...s, width: amountWidth, align: 'right' });
      y += h;
    });
    this.pdf.rect(boxX, top, boxWidth, boxHeight).lineWidth(0.75).stroke(COLOR.rule);

    this.y = top + Math.max(boxHeight, mentionHeight) + 22;
  }

  // ---- payment ------------------------------------------------------------------------------

  private payment(): void {
    const { doc, t } = this;
    const pad = 12;
    const columnWidth = (CONTENT_WIDTH - 2 * pad - 20) / 2;
    const left: [string, string][] = [
      [t('invoice.doc.payment.method'), t('invoice.doc.payment.transfer')],
      [t('invoice.doc.payment.terms'), formatPaymentTerms(doc.payment_terms, doc.language)],
      [t('invoice.doc.due_date'), this.date(doc.due_date)],
    ];
    const right: [string, string][] = [[t('invoice.doc.payment.iban'), formatIban(doc.issuer.iban)]];
    if (doc.issuer.bic) right.push([t('invoice.doc.payment.bic'), doc.issuer.bic]);

    const headStyle: TextStyle = {
      bold: true,
      size: 9.5,
      color: COLOR.accent,
      width: CONTENT_WIDTH - 2 * pad,
    };
    const labelStyle: TextStyle = { size: 8, color: COLOR.muted };
    const valueStyle: TextStyle = { bold: true, size: 9 };
    // Each column's labels set its own label width, so the IBAN keeps one line.
    const widthsOf = (rows: [string, string][]) => {
      const label = Math.max(...rows.map(([l]) => this.widthOf(l, labelStyle))) + 10;
      return { label, value: columnWidth - label };
    };
    const rowHeight = ([, v]: [string, string], valueWidth: number) =>
      Math.max(this.heightOf(v, { ...valueStyle, width: valueWidth }), 11) + 4;
    const columnHeight = (rows: [string, string][]) =>
      rows.reduce((h, r) => h + rowHeight(r, widthsOf(rows).value), 0);
    const heading = t('invoice.doc.payment');
    const headHeight = this.heightOf(heading, headStyle) + 6;
    const height = pad + headHeight + Math.max(columnHeight(left), columnHeight(right)) + pad - 4;

    this.ensure(height);
    const top = this.y;
    this.pdf.rect(MARGIN, top, CONTENT_WIDTH, height).fill(COLOR.band);
    this.write(heading, MARGIN + pad, top + pad, headStyle);
    [left, right].forEach((rows, column) => {
      const x = MARGIN + pad + column * (columnWidth + 20);
      const widths = widthsOf(rows);
      let y = top + pad + headHeight;
      for (const row of rows) {
        this.write(row[0], x, y + 0.5, { ...labelStyle, width: widths.label });
        this.write(row[1], x + widths.label, y, { ...valueStyle, width: widths.value });
        y += rowHeight(row, widths.value);
      }
    });
    this.y = top + height + 20;
  }

  // ---- notes --------------------------------------------------------------------------------

  private notes(): void {
    const notes = this.doc.notes?.trim();
    if (!notes) return;
    const headStyle: TextStyle = { bold: true, size: 9.5, color: COLOR.accent, width: CONTENT_WIDTH };
    const textStyle: TextStyle = { size: 9, width: CONTENT_WIDTH };
    const heading = this.t('invoice.doc.notes');
    const paragraphs = notes.split(/\r?\n/).map((p) => p.trim() || ' ');
    this.ensure(this.heightOf(heading, headStyle) + 4 + this.heightOf(paragraphs[0] ?? ' ', textStyle));
    this.y += this.write(heading, MARGIN, this.y, headStyle) + 4;
    for (const paragraph of paragraphs) {
      // A paragraph taller than a page is cut by lines so the footer area stays free.
      for (const chunk of this.splitToFit(paragraph, textStyle)) {
        this.ensure(this.heightOf(chunk, textStyle));
        this.y += this.write(chunk, MARGIN, this.y, textStyle);
      }
    }
  }

  /** Splits text into pieces that each fit on an empty page (by words). */
  private splitToFit(text: string, style: TextStyle): string[] {
    const max = CONTENT_BOTTOM - 66;
    if (this.heightOf(text, style) <= max) return [text];
    const words = text.split(' ');
    const pieces: string[] = [];
    let current = '';
    for (const word of words) {
      const next = current ? `${current} ${word}` : word;
      if (current && this.heightOf(next, style) > max) {
        pieces.push(current);
        current = word;
      } else current = next;
    }
    if (current) pieces.push(current);
    return pieces;
  }

  // ---- footers ------------------------------------------------------------------------------

  private footers(): void {
    const { doc, t } = this;
    const range = this.pdf.bufferedPageRange();
    const pages = range.count;
    const taxLabel =
      doc.tax_treatment === 'reverse_charge' ? t('invoice.doc.vat_id') : t('invoice.doc.tax_id');
    const taxId = doc.tax_treatment === 'reverse_charge' ? vatNumber(doc.issuer) : doc.issuer.tax_id;
    const left = `${doc.issuer.legal_name} · ${taxLabel} ${taxId} · ${this.title} ${doc.number}`;
    for (let i = 0; i < pages; i++) {
      this.pdf.switchToPage(range.start + i);
      this.pdf
        .moveTo(MARGIN, FOOTER_Y - 7)
        .lineTo(RIGHT, FOOTER_Y - 7)
        .lineWidth(0.5)
        .stroke(COLOR.rule);
      this.write(left, MARGIN, FOOTER_Y, { size: 7, color: COLOR.muted, width: CONTENT_WIDTH - 70 });
      this.write(t('invoice.doc.page', { page: i + 1, pages }), RIGHT - 70, FOOTER_Y, {
        size: 7.5,
        color: COLOR.muted,
        width: 70,
        align: 'right',
      });
    }
  }
}

/** `1000.00` -> `-1000.00`, `-5.00` -> `5.00`: an allowance shown as the deduction it is. */
function negate(amount: string): string {
  if (/^-?0*\.?0*$/.test(amount)) return amount;
  return amount.startsWith('-') ? amount.slice(1) : `-${amount}`;
}
