/**
 * A publisher's payout statement of a month (PDF, pdfkit with the invoices' embedded DejaVu fonts):
 * who pays whom, the period, the figures (revenue of the traffic, the publisher's share and
 * earnings, what earlier months carried in, finance's adjustment, the payout), where it is paid
 * and its state (confirmed, approved, paid on, bank reference). Labels are `payout.doc.*` in the
 * publisher's language (Spanish-speaking countries get Spanish). Deterministic: the same payout
 * gives the same bytes (the PDF's dates are the period's end).
 */
import { translate, type MessageKey } from '@backoffice/core/i18n/catalogues';
import type { PayoutDto } from '@backoffice/core/payouts';
import { payoutReference } from '@backoffice/core/payouts';
import PDFDocument from 'pdfkit';
import { FONT_BOLD, FONT_REGULAR, keepParsedFonts, pdfBytes, registerInvoiceFonts } from '../invoices/pdf/fonts.ts';
import { formatDocDate, formatDocMoney, formatIban, formatPaymentTerms, formatPercent, formatQuantity, type DocLanguage } from '../invoices/pdf/format.ts';

const MARGIN = 50;
const WIDTH = 595.28 - 2 * MARGIN;
const ACCENT = '#1f3a5f';
const MUTED = '#5d6876';
const RULE = '#cfd7e1';

export interface StatementIssuer {
  legal_name: string;
  tax_id: string;
  address: string;
  city: string;
  postal_code: string;
  country: string;
  email: string;
}

export async function renderPayoutStatement(p: PayoutDto, issuer: StatementIssuer, company: { tax_id: string | null; country: string | null; address: string | null; city: string | null }, language: DocLanguage): Promise<Buffer> {
  const t = (key: MessageKey, params?: Record<string, string | number>) => translate(language, key, params);
  const at = new Date(`${p.to_date}T00:00:00Z`);
  const title = t('payout.doc.title');
  const pdf = new PDFDocument({
    size: 'A4',
    margins: { top: MARGIN, left: MARGIN, right: MARGIN, bottom: 30 },
    font: '',
    autoFirstPage: false,
    lang: language,
    displayTitle: true,
    info: {
      Title: `${title} ${p.month} — ${p.name}`,
      Author: issuer.legal_name,
      Creator: 'Backoffice payouts',
      Producer: 'Backoffice payouts (pdfkit)',
      CreationDate: at,
      ModDate: at,
    },
  });
  registerInvoiceFonts(pdf);
  const done = pdfBytes(pdf);
  pdf.addPage({ size: 'A4', margins: { top: MARGIN, left: MARGIN, right: MARGIN, bottom: 30 } });
  const money = (v: string) => formatDocMoney(v, p.currency, language);
  const text = (s: string, x: number, y: number, o: { bold?: boolean; size?: number; color?: string; width?: number; align?: 'left' | 'right' | 'center' } = {}) => {
    pdf.font(o.bold ? FONT_BOLD : FONT_REGULAR).fontSize(o.size ?? 9).fillColor(o.color ?? '#1d232b');
    pdf.text(s, x, y, { width: o.width ?? WIDTH, align: o.align ?? 'left', lineBreak: true });
    return pdf.y;
  };

  // Header
  text(issuer.legal_name, MARGIN, MARGIN, { bold: true, size: 12, color: ACCENT });
  text(title, MARGIN, MARGIN, { bold: true, size: 16, color: ACCENT, align: 'right' });
  text(`${t('payout.doc.period')}: ${formatDocDate(p.from_date, language)} – ${formatDocDate(p.to_date, language)}`, MARGIN, MARGIN + 22, { align: 'right', color: MUTED });
  text(`${t('payout.doc.reference')}: ${payoutReference(p.id)}`, MARGIN, MARGIN + 35, { align: 'right', color: MUTED });
  pdf.moveTo(MARGIN, MARGIN + 55).lineTo(MARGIN + WIDTH, MARGIN + 55).strokeColor(RULE).lineWidth(1).stroke();

  // Parties
  const half = WIDTH / 2 - 10;
  let y = MARGIN + 68;
  text(t('payout.doc.payer'), MARGIN, y, { bold: true, color: MUTED, width: half });
  text(t('payout.doc.payee'), MARGIN + half + 20, y, { bold: true, color: MUTED, width: half });
  y += 14;
  const left = [issuer.legal_name, `${t('payout.doc.tax_id')}: ${issuer.tax_id}`, issuer.address, `${issuer.postal_code} ${issuer.city} (${issuer.country})`, issuer.email];
  const right = [
    p.publisher.company_name ?? p.name,
    `${t('payout.doc.publisher')}: ${p.name} (#${p.id_user})`,
    company.tax_id ? `${t('payout.doc.tax_id')}: ${company.tax_id}` : t('payout.doc.tax_id_missing'),
    [company.address, company.city, company.country].filter(Boolean).join(', '),
    p.billing_info.iban ? `IBAN ${formatIban(p.billing_info.iban)}` : t('payout.doc.iban_missing'),
  ].filter((s) => s !== '');
  let yl = y;
  for (const line of left) yl = text(line, MARGIN, yl, { width: half }) + 1;
  let yr = y;
  for (const line of right) yr = text(line, MARGIN + half + 20, yr, { width: half }) + 1;
  y = Math.max(yl, yr) + 18;

  // Figures
  const rows: [string, string, boolean?][] = [
    [t('payout.doc.impressions'), formatQuantity(String(p.impressions), language)],
    [t('payout.doc.revenue_gross'), money(p.revenue_gross)],
    [t('payout.doc.share'), formatPercent(p.share_pct, language)],
    [t('payout.doc.new_revenue'), money(p.new_revenue)],
    ...p.carried_from.map((c): [string, string] => [t('payout.doc.carried', { month: c.month }), money(c.amount)]),
    ...(p.adjustment !== '0.00' ? [[t('payout.doc.adjustment'), money(p.adjustment)] as [string, string]] : []),
    [t('payout.doc.payout'), money(p.payout), true],
  ];
  pdf.rect(MARGIN, y, WIDTH, 20).fill('#eef2f7');
  text(t('payout.doc.concept'), MARGIN + 8, y + 6, { bold: true, width: WIDTH - 160 });
  text(t('payout.doc.amount'), MARGIN + WIDTH - 160, y + 6, { bold: true, width: 152, align: 'right' });
  y += 26;
  for (const [label, value, strong] of rows) {
    if (strong) {
      pdf.moveTo(MARGIN, y - 3).lineTo(MARGIN + WIDTH, y - 3).strokeColor(RULE).stroke();
      y += 3;
    }
    text(label, MARGIN + 8, y, { bold: strong, width: WIDTH - 170, size: strong ? 11 : 9 });
    text(value, MARGIN + WIDTH - 160, y, { bold: strong, width: 152, align: 'right', size: strong ? 11 : 9 });
    y += strong ? 20 : 15;
  }
  y += 12;

  // Payment
  const status = [
    `${t('payout.doc.state')}: ${t(`payout.state.${p.state}` as MessageKey)}`,
    `${t('payout.doc.terms')}: ${formatPaymentTerms(p.payment_terms, language)}${p.due_date ? ` — ${t('payout.doc.due')}: ${formatDocDate(p.due_date, language)}` : ''}`,
    ...(p.paid_on ? [`${t('payout.doc.paid_on')}: ${formatDocDate(p.paid_on, language)}${p.bank_reference ? ` — ${t('payout.doc.bank_reference')}: ${p.bank_reference}` : ''}`] : []),
    ...(p.state === 'carried' ? [t('payout.doc.carried_note')] : []),
  ];
  for (const line of status) y = text(line, MARGIN, y) + 3;
  y += 10;
  text(t('payout.doc.note'), MARGIN, y, { color: MUTED, size: 8 });
  text(`${issuer.legal_name} — ${title} ${p.month} — ${payoutReference(p.id)}`, MARGIN, 841.89 - 45, { color: MUTED, size: 7, align: 'center' });
  keepParsedFonts(pdf);
  pdf.end();
  return done;
}
