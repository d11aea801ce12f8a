/**
 * The XML of a record: `RegistroAlta` / `RegistroAnulacion` of the AEAT's SuministroInformacion.xsd
 * (the `sf` namespace below; SuministroLR.xsd wraps them in RegFactuSistemaFacturacion /
 * RegistroFactura for sending). Elements in the schema's sequence order:
 *
 * RegistroAlta: IDVersion, IDFactura (IDEmisorFactura, NumSerieFactura, FechaExpedicionFactura),
 *   NombreRazonEmisor, TipoFactura, [TipoRectificativa, FacturasRectificadas, ImporteRectificacion],
 *   DescripcionOperacion, Destinatarios, Desglose, CuotaTotal, ImporteTotal, Encadenamiento,
 *   SistemaInformatico, FechaHoraHusoGenRegistro, TipoHuella, Huella.
 * RegistroAnulacion: IDVersion, IDFactura (IDEmisorFacturaAnulada, NumSerieFacturaAnulada,
 *   FechaExpedicionFacturaAnulada), Encadenamiento, SistemaInformatico, FechaHoraHusoGenRegistro,
 *   TipoHuella, Huella.
 *
 * The hash is not computed here: the record (record.ts) carries it, and the XML writes the same
 * values the hash covers. No signature (ds:Signature is optional for VERI*FACTU records).
 */
import { create } from 'xmlbuilder2';
import type { XMLBuilder } from 'xmlbuilder2/lib/interfaces';
import { aeatDate, VerifactuInputError, type VerifactuRecordFields } from './record.ts';

export const SF_NAMESPACE =
  'https://www2.agenciatributaria.gob.es/static_files/common/internet/dep/aplicaciones/es/aeat/tike/cont/ws/SuministroInformacion.xsd';

/** SistemaInformatico: the billing software that generated the record (configuration). */
export interface VerifactuSystemInfo {
  /** NombreRazon: the software producer's name. */
  producerName: string;
  /** NIF: the producer's Spanish NIF. */
  producerNif: string;
  /** NombreSistemaInformatico (max 30). */
  name: string;
  /** IdSistemaInformatico (max 2 characters, assigned by the producer). */
  id: string;
  /** Version (max 50). */
  version: string;
  /** NumeroInstalacion (max 100). */
  installationNumber: string;
  /** TipoUsoPosibleSoloVerifactu: the software can only work as VERI*FACTU. */
  onlyVerifactu: boolean;
  /** TipoUsoPosibleMultiOT: the software can serve several taxpayers. */
  multipleTaxpayersPossible: boolean;
  /** IndicadorMultiplesOT: this installation serves several taxpayers. */
  multipleTaxpayers: boolean;
}

/** L7 of the Orden (IDType of IDOtro). */
export type VerifactuIdType = '02' | '03' | '04' | '05' | '06' | '07';

/** IDDestinatario: a Spanish NIF, or IDOtro (country, id type, id) for anyone else. */
export type VerifactuRecipient =
  { name: string; nif: string } | { name: string; country: string; idType: VerifactuIdType; id: string };

/** L9: S1 subject, S2 subject with reverse charge (domestic), N1 not subject (art. 7, 14…), N2 not subject (place of supply). */
export type VerifactuQualification = 'S1' | 'S2' | 'N1' | 'N2';
/** L10: exempt by art. 20, 21, 22, 23–24, 25 LIVA, or other. */
export type VerifactuExemption = 'E1' | 'E2' | 'E3' | 'E4' | 'E5' | 'E6';

/** One DetalleDesglose (one tax rate / qualification). */
export interface VerifactuBreakdownLine {
  /** Impuesto (L1): 01 VAT (the default). */
  tax?: '01' | '02' | '03' | '05';
  /** ClaveRegimen (L8A): 01 general regime. */
  regime: string;
  /** CalificacionOperacion, or… */
  qualification?: VerifactuQualification;
  /** …OperacionExenta: exactly one of the two. */
  exemption?: VerifactuExemption;
  /** TipoImpositivo ("21.00"): for S1/S2 only. */
  rate?: string;
  /** BaseImponibleOimporteNoSujeto, two decimals. */
  base: string;
  /** CuotaRepercutida, two decimals: for S1/S2 only. */
  taxAmount?: string;
}

/** A factura rectificativa's data: which invoices it corrects and how. */
export interface VerifactuCorrection {
  /** TipoRectificativa: I por diferencias (the record carries the difference), S por sustitución. */
  type: 'I' | 'S';
  /** FacturasRectificadas / IDFacturaRectificada. */
  corrected: { issuerTaxId: string; number: string; issueDate: string }[];
  /** ImporteRectificacion: required for type S (the corrected invoice's base and tax). */
  replaced?: { base: string; tax: string };
}

export interface RegistroAltaXmlInput {
  record: VerifactuRecordFields;
  /** The previous record of the chain (null for the first): its identity goes in RegistroAnterior. */
  previous: VerifactuRecordFields | null;
  /** NombreRazonEmisor (max 120). */
  issuerName: string;
  /** DescripcionOperacion (max 500; longer text is cut). */
  description: string;
  /** Destinatarios; null only for simplified invoices (F2, R5). */
  recipient: VerifactuRecipient | null;
  /** Desglose: 1 to 12 lines. */
  breakdown: VerifactuBreakdownLine[];
  /** Required for R1–R5. */
  correction?: VerifactuCorrection;
  system: VerifactuSystemInfo;
}

export interface RegistroAnulacionXmlInput {
  record: VerifactuRecordFields;
  previous: VerifactuRecordFields | null;
  system: VerifactuSystemInfo;
}

export interface XmlOptions {
  /** Omit the XML declaration, to embed the element in a RegFactuSistemaFacturacion. */
  headless?: boolean;
  prettyPrint?: boolean;
}

function fail(message: string): never {
  throw new VerifactuInputError(message);
}

function maxLength(value: string, max: number, what: string): string {
  if (value.length === 0 || value.length > max) fail(`${what} must be 1 to ${max} characters: ${value}`);
  return value;
}

const AMOUNT = /^-?\d{1,12}\.\d{2}$/;
const NIF = /^[0-9A-Z]{9}$/;
const RATE = /^\d{1,3}(\.\d{1,2})?$/;

function amount(value: string, what: string): string {
  if (!AMOUNT.test(value)) fail(`${what} must have two decimals: ${value}`);
  return value;
}

/** Exact cents of a two-decimal amount (no float touches money). */
const cents = (value: string, what: string) => BigInt(amount(value, what).replace('.', ''));
const yn = (value: boolean) => (value ? 'S' : 'N');

function encadenamiento(
  parent: XMLBuilder,
  record: VerifactuRecordFields,
  previous: VerifactuRecordFields | null,
) {
  if ((previous?.hash ?? '') !== record.previous_hash) {
    fail(
      `the record's previous_hash does not match the previous record's hash (${previous?.hash ?? 'none'})`,
    );
  }
  const e = parent.ele('sf:Encadenamiento');
  if (!previous) {
    e.ele('sf:PrimerRegistro').txt('S');
    return;
  }
  const a = e.ele('sf:RegistroAnterior');
  a.ele('sf:IDEmisorFactura').txt(previous.issuer_tax_id);
  a.ele('sf:NumSerieFactura').txt(previous.number);
  a.ele('sf:FechaExpedicionFactura').txt(aeatDate(previous.issue_date));
  a.ele('sf:Huella').txt(previous.hash);
}

function sistemaInformatico(parent: XMLBuilder, s: VerifactuSystemInfo) {
  const e = parent.ele('sf:SistemaInformatico');
  e.ele('sf:NombreRazon').txt(maxLength(s.producerName, 120, 'SistemaInformatico NombreRazon'));
  if (!NIF.test(s.producerNif)) fail(`SistemaInformatico NIF has 9 letters and digits: ${s.producerNif}`);
  e.ele('sf:NIF').txt(s.producerNif);
  e.ele('sf:NombreSistemaInformatico').txt(maxLength(s.name, 30, 'NombreSistemaInformatico'));
  e.ele('sf:IdSistemaInformatico').txt(maxLength(s.id, 2, 'IdSistemaInformatico'));
  e.ele('sf:Version').txt(maxLength(s.version, 50, 'Version'));
  e.ele('sf:NumeroInstalacion').txt(maxLength(s.installationNumber, 100, 'NumeroInstalacion'));
  e.ele('sf:TipoUsoPosibleSoloVerifactu').txt(yn(s.onlyVerifactu));
  e.ele('sf:TipoUsoPosibleMultiOT').txt(yn(s.multipleTaxpayersPossible));
  e.ele('sf:IndicadorMultiplesOT').txt(yn(s.multipleTaxpayers));
}

function tail(parent: XMLBuilder, record: VerifactuRecordFields) {
  parent.ele('sf:FechaHoraHusoGenRegistro').txt(record.generated_at);
  parent.ele('sf:TipoHuella').txt('01');
  parent.ele('sf:Huella').txt(record.hash);
}

function detalle(parent: XMLBuilder, line: VerifactuBreakdownLine) {
  if (Boolean(line.qualification) === Boolean(line.exemption)) {
    fail('a breakdown line needs exactly one of qualification (S1, S2, N1, N2) and exemption (E1–E6)');
  }
  const subject = line.qualification === 'S1' || line.qualification === 'S2';
  if (subject && (line.rate === undefined || line.taxAmount === undefined)) {
    fail(`a ${line.qualification} line needs its rate and tax amount`);
  }
  if (!subject && (line.rate !== undefined || line.taxAmount !== undefined)) {
    fail('only S1/S2 lines carry a rate and a tax amount');
  }
  const d = parent.ele('sf:DetalleDesglose');
  d.ele('sf:Impuesto').txt(line.tax ?? '01');
  d.ele('sf:ClaveRegimen').txt(line.regime);
  if (line.qualification) d.ele('sf:CalificacionOperacion').txt(line.qualification);
  else d.ele('sf:OperacionExenta').txt(line.exemption ?? '');
  if (line.rate !== undefined) {
    if (!RATE.test(line.rate))
      fail(`TipoImpositivo must be a percentage with at most two decimals: ${line.rate}`);
    d.ele('sf:TipoImpositivo').txt(line.rate);
  }
  d.ele('sf:BaseImponibleOimporteNoSujeto').txt(amount(line.base, 'BaseImponibleOimporteNoSujeto'));
  if (line.taxAmount !== undefined)
    d.ele('sf:CuotaRepercutida').txt(amount(line.taxAmount, 'CuotaRepercutida'));
}

function recipientXml(parent: XMLBuilder, r: VerifactuRecipient) {
  const d = parent.ele('sf:Destinatarios').ele('sf:IDDestinatario');
  d.ele('sf:NombreRazon').txt(maxLength(r.name.trim(), 120, 'recipient NombreRazon'));
  if ('nif' in r) {
    if (!NIF.test(r.nif)) fail(`a recipient NIF has 9 letters and digits: ${r.nif}`);
    d.ele('sf:NIF').txt(r.nif);
    return;
  }
  if (r.country === 'ES' && r.idType === '02')
    fail('a Spanish recipient is identified by NIF, not IDOtro 02');
  const o = d.ele('sf:IDOtro');
  o.ele('sf:CodigoPais').txt(r.country);
  o.ele('sf:IDType').txt(r.idType);
  o.ele('sf:ID').txt(maxLength(r.id, 20, 'IDOtro ID'));
}

function serialize(doc: XMLBuilder, options: XmlOptions): string {
  return doc.end({ headless: options.headless ?? false, prettyPrint: options.prettyPrint ?? true });
}

/** The RegistroAlta of an alta record. */
export function registroAltaXml(input: RegistroAltaXmlInput, options: XmlOptions = {}): string {
  const { record } = input;
  if (record.kind !== 'alta') fail('registroAltaXml needs an alta record');
  const corrective = record.invoice_type.startsWith('R');
  const simplified = record.invoice_type === 'F2' || record.invoice_type === 'R5';
  if (corrective && !input.correction) fail(`a ${record.invoice_type} record needs its correction data`);
  if (!corrective && input.correction) fail(`a ${record.invoice_type} record is not a corrective invoice`);
  if (!input.recipient && !simplified) fail(`a ${record.invoice_type} record needs its recipient`);
  if (input.breakdown.length < 1 || input.breakdown.length > 12) fail('Desglose takes 1 to 12 lines');

  // The totals the hash covers must be the breakdown's.
  const taxCents = input.breakdown.reduce(
    (sum, l) => sum + (l.taxAmount ? cents(l.taxAmount, 'CuotaRepercutida') : 0n),
    0n,
  );
  const baseCents = input.breakdown.reduce(
    (sum, l) => sum + cents(l.base, 'BaseImponibleOimporteNoSujeto'),
    0n,
  );
  if (taxCents !== cents(record.total_tax, 'CuotaTotal'))
    fail(`CuotaTotal ${record.total_tax} is not the breakdown's tax`);
  if (baseCents + taxCents !== cents(record.total_amount, 'ImporteTotal')) {
    fail(`ImporteTotal ${record.total_amount} is not the breakdown's base plus tax`);
  }

  const doc = create({ version: '1.0', encoding: 'UTF-8' });
  const r = doc.ele(SF_NAMESPACE, 'sf:RegistroAlta');
  r.ele('sf:IDVersion').txt('1.0');
  const id = r.ele('sf:IDFactura');
  id.ele('sf:IDEmisorFactura').txt(record.issuer_tax_id);
  id.ele('sf:NumSerieFactura').txt(record.number);
  id.ele('sf:FechaExpedicionFactura').txt(aeatDate(record.issue_date));
  r.ele('sf:NombreRazonEmisor').txt(maxLength(input.issuerName.trim(), 120, 'NombreRazonEmisor'));
  r.ele('sf:TipoFactura').txt(record.invoice_type);
  if (input.correction) {
    const c = input.correction;
    if (c.corrected.length < 1) fail('FacturasRectificadas needs at least one invoice');
    if (c.type === 'S' && !c.replaced) fail('a correction by substitution (S) needs ImporteRectificacion');
    r.ele('sf:TipoRectificativa').txt(c.type);
    const list = r.ele('sf:FacturasRectificadas');
    for (const f of c.corrected) {
      const e = list.ele('sf:IDFacturaRectificada');
      e.ele('sf:IDEmisorFactura').txt(f.issuerTaxId);
      e.ele('sf:NumSerieFactura').txt(f.number);
      e.ele('sf:FechaExpedicionFactura').txt(aeatDate(f.issueDate));
    }
    if (c.type === 'S' && c.replaced) {
      const e = r.ele('sf:ImporteRectificacion');
      e.ele('sf:BaseRectificada').txt(amount(c.replaced.base, 'BaseRectificada'));
      e.ele('sf:CuotaRectificada').txt(amount(c.replaced.tax, 'CuotaRectificada'));
    }
  }
  const description = input.description.trim().slice(0, 500);
  r.ele('sf:DescripcionOperacion').txt(maxLength(description, 500, 'DescripcionOperacion'));
  if (input.recipient) recipientXml(r, input.recipient);
  const desglose = r.ele('sf:Desglose');
  for (const line of input.breakdown) detalle(desglose, line);
  r.ele('sf:CuotaTotal').txt(record.total_tax);
  r.ele('sf:ImporteTotal').txt(record.total_amount);
  encadenamiento(r, record, input.previous);
  sistemaInformatico(r, input.system);
  tail(r, record);
  return serialize(doc, options);
}

/** The RegistroAnulacion of an anulación record. */
export function registroAnulacionXml(input: RegistroAnulacionXmlInput, options: XmlOptions = {}): string {
  const { record } = input;
  if (record.kind !== 'anulacion') fail('registroAnulacionXml needs an anulación record');
  const doc = create({ version: '1.0', encoding: 'UTF-8' });
  const r = doc.ele(SF_NAMESPACE, 'sf:RegistroAnulacion');
  r.ele('sf:IDVersion').txt('1.0');
  const id = r.ele('sf:IDFactura');
  id.ele('sf:IDEmisorFacturaAnulada').txt(record.issuer_tax_id);
  id.ele('sf:NumSerieFacturaAnulada').txt(record.number);
  id.ele('sf:FechaExpedicionFacturaAnulada').txt(aeatDate(record.issue_date));
  encadenamiento(r, record, input.previous);
  sistemaInformatico(r, input.system);
  tail(r, record);
  return serialize(doc, options);
}
