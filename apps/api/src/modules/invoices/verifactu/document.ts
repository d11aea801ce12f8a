/**
 * From an issued invoice document (InvoiceDocument, issue 22) to its VERI*FACTU registro de alta and
 * the data its XML needs. The choices (decision 027):
 * - TipoFactura: F1 for an invoice; R1 for a credit note (art. 80.Uno, Dos and Seis LIVA and error
 *   fundado en derecho: a price reduced after the operation, our reconciliation case), TipoRectificativa
 *   I (por diferencias: the credit note carries the negative difference), FacturasRectificadas naming
 *   the corrected invoice. Another R type can be passed as an option.
 * - Desglose, one line, Impuesto 01 (VAT), ClaveRegimen 01 (general regime):
 *   domestic        S1, TipoImpositivo vat_rate, base and VAT;
 *   reverse_charge  N2 (B2B services to a business in another member state: located there by art.
 *                   69.Uno.1º LIVA, not subject in Spain; the customer self-assesses), base only;
 *   not_subject     N2 (B2B services to a business outside the EU: same rule), base only.
 * - Destinatario: NIF for a Spanish customer; IDOtro 02 (NIF-IVA, with its VIES country prefix) for
 *   one in another member state; IDOtro 04 (id issued by the country of residence) otherwise.
 * - Amounts are the document's (CuotaTotal = vat_amount, ImporteTotal = total). The AEAT's records
 *   are in euros: a document in another currency needs its euro figures (options.eur).
 */
import type { InvoiceDocument, InvoiceParty } from '@backoffice/core/invoice-document';
import {
  createAltaRecord,
  VerifactuInputError,
  type VerifactuInvoiceType,
  type VerifactuRecordFields,
} from './record.ts';
import type {
  RegistroAltaXmlInput,
  VerifactuBreakdownLine,
  VerifactuRecipient,
  VerifactuSystemInfo,
} from './xml.ts';

/** Member states (ISO 3166-1), with the prefix of their VAT numbers where it differs (Greece: EL). */
const EU_VAT_PREFIX: Record<string, string> = {
  AT: 'AT', BE: 'BE', BG: 'BG', CY: 'CY', CZ: 'CZ', DE: 'DE', DK: 'DK', EE: 'EE', ES: 'ES', FI: 'FI',
  FR: 'FR', GR: 'EL', HR: 'HR', HU: 'HU', IE: 'IE', IT: 'IT', LT: 'LT', LU: 'LU', LV: 'LV', MT: 'MT',
  NL: 'NL', PL: 'PL', PT: 'PT', RO: 'RO', SE: 'SE', SI: 'SI', SK: 'SK',
}; // prettier-ignore

export interface EurAmounts {
  /** The document's base, VAT and total converted to euros, two decimals. */
  base: string;
  vat_amount: string;
  total: string;
}

export interface AltaFromDocumentOptions {
  /** TipoFactura of a credit note (default R1). */
  correctiveType?: Exclude<VerifactuInvoiceType, 'F1' | 'F2' | 'F3'>;
  /** Required when the document's currency is not EUR. */
  eur?: EurAmounts;
}

function eurFigures(doc: InvoiceDocument, eur: EurAmounts | undefined): EurAmounts {
  if (doc.currency === 'EUR') return { base: doc.base, vat_amount: doc.vat_amount, total: doc.total };
  if (!eur) {
    throw new VerifactuInputError(
      `${doc.number} is in ${doc.currency}: VERI*FACTU records are in euros, pass its euro amounts (options.eur)`,
    );
  }
  return eur;
}

function invoiceType(doc: InvoiceDocument, options: AltaFromDocumentOptions): VerifactuInvoiceType {
  if (doc.kind === 'invoice') return 'F1';
  if (!doc.corrects)
    throw new VerifactuInputError(`credit note ${doc.number} does not name the invoice it corrects`);
  return options.correctiveType ?? 'R1';
}

/**
 * The registro de alta of an issued document, chained after `previous` (null for the chain's first
 * record). NumSerieFactura = doc.number, CuotaTotal = doc.vat_amount, ImporteTotal = doc.total.
 */
export function altaFromDocument(
  doc: InvoiceDocument,
  previous: { hash: string } | null,
  generatedAt: Date | string,
  options: AltaFromDocumentOptions = {},
): VerifactuRecordFields {
  const eur = eurFigures(doc, options.eur);
  return createAltaRecord(
    {
      issuer_tax_id: doc.issuer.tax_id,
      number: doc.number,
      issue_date: doc.issue_date,
      invoice_type: invoiceType(doc, options),
      total_tax: eur.vat_amount,
      total_amount: eur.total,
      generated_at: generatedAt,
    },
    previous,
  );
}

/** IDDestinatario of a customer (see the module comment). */
export function recipientOf(party: InvoiceParty): VerifactuRecipient {
  const country = party.country.trim().toUpperCase();
  const taxId = party.tax_id.replace(/[\s.]/g, '').toUpperCase();
  if (country === 'ES') return { name: party.legal_name, nif: taxId.replace(/^ES/, '') };
  const prefix = EU_VAT_PREFIX[country];
  if (prefix)
    return {
      name: party.legal_name,
      country,
      idType: '02',
      id: taxId.startsWith(prefix) ? taxId : prefix + taxId,
    };
  return { name: party.legal_name, country, idType: '04', id: taxId };
}

/** Desglose of a document (one line: the document has one tax treatment). */
export function breakdownOf(doc: InvoiceDocument, eur: EurAmounts): VerifactuBreakdownLine[] {
  switch (doc.tax_treatment) {
    case 'domestic':
      return [
        {
          tax: '01',
          regime: '01',
          qualification: 'S1',
          rate: doc.vat_rate,
          base: eur.base,
          taxAmount: eur.vat_amount,
        },
      ];
    case 'reverse_charge':
    case 'not_subject':
      return [{ tax: '01', regime: '01', qualification: 'N2', base: eur.base }];
  }
}

function descriptionOf(doc: InvoiceDocument): string {
  const parts = doc.lines.map((l) => l.description.trim()).filter(Boolean);
  if (doc.corrects) parts.unshift(doc.corrects.reason.trim());
  return (parts.join('; ') || doc.number).slice(0, 500);
}

/**
 * Everything registroAltaXml needs for a document's record: `record` is altaFromDocument's result
 * (or the stored row), `previous` the chain's previous record.
 */
export function altaXmlInputFromDocument(
  doc: InvoiceDocument,
  record: VerifactuRecordFields,
  previous: VerifactuRecordFields | null,
  system: VerifactuSystemInfo,
  options: Pick<AltaFromDocumentOptions, 'eur'> = {},
): RegistroAltaXmlInput {
  const eur = eurFigures(doc, options.eur);
  return {
    record,
    previous,
    issuerName: doc.issuer.legal_name,
    description: descriptionOf(doc),
    recipient: recipientOf(doc.customer),
    breakdown: breakdownOf(doc, eur),
    correction: doc.corrects
      ? {
          type: 'I',
          corrected: [
            {
              issuerTaxId: record.issuer_tax_id,
              number: doc.corrects.number,
              issueDate: doc.corrects.issue_date,
            },
          ],
        }
      : undefined,
    system,
  };
}
