/**
 * A SEPA credit transfer initiation (ISO 20022 pain.001.001.03, the version the EPC SCT
 * implementation guidelines and Spanish banks take) for approved EUR payouts: one payment
 * information block debiting the side's issuing company (invoice_issuers: name, IBAN, BIC), one
 * transaction per payout crediting the publisher company's IBAN, EndToEndId `PO-{id}` (what the
 * payment CSV import matches). Texts are reduced to the SEPA character set (Latin letters, digits,
 * / - ? : ( ) . , ' + and space) and cut to the schema's lengths. Built with xmlbuilder2 (decision
 * 026). The tests validate files against ../shared/standards/sepa/pain.001.001.03.xsd.
 */
import { isValidIban, normalizeIban } from '@backoffice/core/tax-ids';
import { fromCents, payoutReference, toCents } from '@backoffice/core/payouts';
import { create } from 'xmlbuilder2';

export const PAIN_001_NS = 'urn:iso:std:iso:20022:tech:xsd:pain.001.001.03';

export interface SepaDebtor {
  name: string;
  country: string;
  address: string;
  city: string;
  postalCode: string;
  iban: string;
  bic: string | null;
}
export interface SepaTransfer {
  payoutId: number;
  month: string;
  amount: string;
  creditorName: string;
  creditorCountry: string | null;
  iban: string;
}

/** Text in the SEPA character set, at most `max` characters. */
export function sepaText(text: string, max: number): string {
  const latin = text
    .normalize('NFD')
    .replace(/[\u0300-\u036f]/g, '')
    .replace(/ß/g, 'ss')
    .replace(/&/g, '+')
    .replace(/[^A-Za-z0-9/\-?:().,'+ ]/g, ' ')
    .replace(/\s+/g, ' ')
    .trim();
  return latin.slice(0, max).trim() || 'NOTPROVIDED';
}

/** The pain.001.001.03 document; `messageId` at most 35 characters, `createdAt` ISO without milliseconds. */
export function sepaCreditTransfer(input: { messageId: string; createdAt: Date; executionDate: string; debtor: SepaDebtor; transfers: SepaTransfer[] }): string {
  const total = fromCents(input.transfers.reduce((s, t) => s + toCents(t.amount), 0n));
  const count = String(input.transfers.length);
  const doc = create({ version: '1.0', encoding: 'UTF-8' }).ele(PAIN_001_NS, 'Document').ele('CstmrCdtTrfInitn');
  const header = doc.ele('GrpHdr');
  header.ele('MsgId').txt(input.messageId);
  header.ele('CreDtTm').txt(input.createdAt.toISOString().slice(0, 19));
  header.ele('NbOfTxs').txt(count);
  header.ele('CtrlSum').txt(total);
  header.ele('InitgPty').ele('Nm').txt(sepaText(input.debtor.name, 70));

  const info = doc.ele('PmtInf');
  info.ele('PmtInfId').txt(input.messageId);
  info.ele('PmtMtd').txt('TRF');
  info.ele('BtchBookg').txt('true');
  info.ele('NbOfTxs').txt(count);
  info.ele('CtrlSum').txt(total);
  info.ele('PmtTpInf').ele('SvcLvl').ele('Cd').txt('SEPA');
  info.ele('ReqdExctnDt').txt(input.executionDate);
  const debtor = info.ele('Dbtr');
  debtor.ele('Nm').txt(sepaText(input.debtor.name, 70));
  const address = debtor.ele('PstlAdr');
  address.ele('Ctry').txt(input.debtor.country);
  address.ele('AdrLine').txt(sepaText(input.debtor.address, 70));
  address.ele('AdrLine').txt(sepaText(`${input.debtor.postalCode} ${input.debtor.city}`, 70));
  const account = info.ele('DbtrAcct');
  account.ele('Id').ele('IBAN').txt(normalizeIban(input.debtor.iban));
  account.ele('Ccy').txt('EUR');
  const agent = info.ele('DbtrAgt').ele('FinInstnId');
  if (input.debtor.bic) agent.ele('BIC').txt(input.debtor.bic);
  else agent.ele('Othr').ele('Id').txt('NOTPROVIDED');
  info.ele('ChrgBr').txt('SLEV');

  for (const t of input.transfers) {
    const tx = info.ele('CdtTrfTxInf');
    const ids = tx.ele('PmtId');
    ids.ele('InstrId').txt(payoutReference(t.payoutId));
    ids.ele('EndToEndId').txt(payoutReference(t.payoutId));
    tx.ele('Amt').ele('InstdAmt', { Ccy: 'EUR' }).txt(fromCents(toCents(t.amount)));
    const creditor = tx.ele('Cdtr');
    creditor.ele('Nm').txt(sepaText(t.creditorName, 70));
    if (t.creditorCountry) creditor.ele('PstlAdr').ele('Ctry').txt(t.creditorCountry);
    tx.ele('CdtrAcct').ele('Id').ele('IBAN').txt(normalizeIban(t.iban));
    tx.ele('RmtInf').ele('Ustrd').txt(sepaText(`Payout ${t.month} ${payoutReference(t.payoutId)}`, 140));
  }
  return doc.end({ prettyPrint: true });
}

/** Why a payout cannot go into a SEPA file (null: it can). */
export function sepaRefusal(p: { state: string; currency: string; iban: string | null; payout: string }): string | null {
  if (p.state !== 'approved') return 'payout.sepa.not_approved';
  if (p.currency !== 'EUR') return 'payout.sepa.not_eur';
  if (!p.iban || !isValidIban(p.iban)) return 'payout.iban_invalid';
  if (toCents(p.payout) <= 0n) return 'payout.sepa.not_positive';
  return null;
}
