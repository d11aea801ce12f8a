/**
 * VERI*FACTU billing records (Real Decreto 1007/2023, Orden HAC/1177/2024) and their hash
 * ("huella"), per the AEAT's "Detalle de las especificaciones técnicas para generación de la
 * huella o hash de los registros de facturación" (v0.1.2, 27/08/2024):
 * - SHA-256 over the UTF-8 bytes of `Campo1=valor1&Campo2=valor2&…`, the fields in the order below,
 *   each value trimmed, an empty value written as `Campo=`, nothing URL-encoded;
 * - the result as 64 upper-case hexadecimal characters;
 * - alta: IDEmisorFactura, NumSerieFactura, FechaExpedicionFactura, TipoFactura, CuotaTotal,
 *   ImporteTotal, Huella (of the previous record; empty for the first), FechaHoraHusoGenRegistro;
 * - anulación: IDEmisorFacturaAnulada, NumSerieFacturaAnulada, FechaExpedicionFacturaAnulada,
 *   Huella, FechaHoraHusoGenRegistro.
 * Values enter the hash exactly as they are written in the record's XML: dates dd-mm-yyyy, amounts
 * with a dot and the two decimals we store ("12.35", "-3000.00"), no thousands separator.
 *
 * Pure functions: no database, no clock (the generation time is a parameter).
 */
import { createHash } from 'node:crypto';

/** L2 of the Orden: F1 invoice, F2 simplified, F3 replacing simplified ones, R1–R5 corrective. */
export const VERIFACTU_INVOICE_TYPES = ['F1', 'F2', 'F3', 'R1', 'R2', 'R3', 'R4', 'R5'] as const;
export type VerifactuInvoiceType = (typeof VERIFACTU_INVOICE_TYPES)[number];

export type VerifactuRecordKind = 'alta' | 'anulacion';

/**
 * A record as stored (one row of the chain). Dates in our storage form (YYYY-MM-DD); they are
 * written dd-mm-yyyy in the hash and the XML. An anulación has '' for invoice_type, total_tax and
 * total_amount (they are not part of its hash).
 */
export interface VerifactuRecordFields {
  kind: VerifactuRecordKind;
  /** IDEmisorFactura(Anulada): the issuer's Spanish NIF, 9 characters. */
  issuer_tax_id: string;
  /** NumSerieFactura(Anulada): series and number as printed ("F2026-000123"). */
  number: string;
  /** FechaExpedicionFactura(Anulada), YYYY-MM-DD. */
  issue_date: string;
  /** TipoFactura (F1, R1…), '' for an anulación. */
  invoice_type: string;
  /** CuotaTotal, two decimals ("2593.61"), '' for an anulación. */
  total_tax: string;
  /** ImporteTotal, two decimals ("14944.11"), '' for an anulación. */
  total_amount: string;
  /** Huella of the previous record of the chain; '' for the first record. */
  previous_hash: string;
  /** FechaHoraHusoGenRegistro: yyyy-mm-ddThh:mm:ss+hh:mm (Europe/Madrid's offset). */
  generated_at: string;
  /** This record's Huella. */
  hash: string;
}

export interface VerifactuRecord extends VerifactuRecordFields {
  id: string | number;
}

/** The alta fields of the hash, named and formatted as in the XML. */
export interface AltaHashFields {
  IDEmisorFactura: string;
  NumSerieFactura: string;
  FechaExpedicionFactura: string;
  TipoFactura: string;
  CuotaTotal: string;
  ImporteTotal: string;
  Huella: string;
  FechaHoraHusoGenRegistro: string;
}

/** The anulación fields of the hash, named and formatted as in the XML. */
export interface AnulacionHashFields {
  IDEmisorFacturaAnulada: string;
  NumSerieFacturaAnulada: string;
  FechaExpedicionFacturaAnulada: string;
  Huella: string;
  FechaHoraHusoGenRegistro: string;
}

/** The string the alta hash is computed over. */
export function altaHashInput(f: AltaHashFields): string {
  return (
    `IDEmisorFactura=${f.IDEmisorFactura.trim()}` +
    `&NumSerieFactura=${f.NumSerieFactura.trim()}` +
    `&FechaExpedicionFactura=${f.FechaExpedicionFactura.trim()}` +
    `&TipoFactura=${f.TipoFactura.trim()}` +
    `&CuotaTotal=${f.CuotaTotal.trim()}` +
    `&ImporteTotal=${f.ImporteTotal.trim()}` +
    `&Huella=${f.Huella.trim()}` +
    `&FechaHoraHusoGenRegistro=${f.FechaHoraHusoGenRegistro.trim()}`
  );
}

/** The string the anulación hash is computed over. */
export function anulacionHashInput(f: AnulacionHashFields): string {
  return (
    `IDEmisorFacturaAnulada=${f.IDEmisorFacturaAnulada.trim()}` +
    `&NumSerieFacturaAnulada=${f.NumSerieFacturaAnulada.trim()}` +
    `&FechaExpedicionFacturaAnulada=${f.FechaExpedicionFacturaAnulada.trim()}` +
    `&Huella=${f.Huella.trim()}` +
    `&FechaHoraHusoGenRegistro=${f.FechaHoraHusoGenRegistro.trim()}`
  );
}

/** SHA-256 of the UTF-8 string, 64 upper-case hexadecimal characters. */
export function huella(input: string): string {
  return createHash('sha256').update(input, 'utf8').digest('hex').toUpperCase();
}

const ISO_DATE = /^(\d{4})-(\d{2})-(\d{2})$/;

/** YYYY-MM-DD → dd-mm-yyyy (the AEAT's date format). Anything else is returned unchanged. */
export function aeatDate(isoDate: string): string {
  const m = ISO_DATE.exec(isoDate.trim());
  return m ? `${m[3]}-${m[2]}-${m[1]}` : isoDate;
}

/**
 * The string a stored record's hash is computed over. `previousHash` defaults to the record's own
 * previous_hash; the chain verifier passes the previous record's stored hash instead.
 */
export function recordHashInput(
  record: Omit<VerifactuRecordFields, 'hash'>,
  previousHash: string = record.previous_hash,
): string {
  if (record.kind === 'anulacion') {
    return anulacionHashInput({
      IDEmisorFacturaAnulada: record.issuer_tax_id,
      NumSerieFacturaAnulada: record.number,
      FechaExpedicionFacturaAnulada: aeatDate(record.issue_date),
      Huella: previousHash,
      FechaHoraHusoGenRegistro: record.generated_at,
    });
  }
  return altaHashInput({
    IDEmisorFactura: record.issuer_tax_id,
    NumSerieFactura: record.number,
    FechaExpedicionFactura: aeatDate(record.issue_date),
    TipoFactura: record.invoice_type,
    CuotaTotal: record.total_tax,
    ImporteTotal: record.total_amount,
    Huella: previousHash,
    FechaHoraHusoGenRegistro: record.generated_at,
  });
}

/** The hash of a stored record (see recordHashInput). */
export function recordHash(record: Omit<VerifactuRecordFields, 'hash'>, previousHash?: string): string {
  return huella(recordHashInput(record, previousHash));
}

// --- the generation timestamp -------------------------------------------------------------------

const MADRID = new Intl.DateTimeFormat('en-GB', {
  timeZone: 'Europe/Madrid',
  year: 'numeric',
  month: '2-digit',
  day: '2-digit',
  hour: '2-digit',
  minute: '2-digit',
  second: '2-digit',
  hourCycle: 'h23',
});

const pad2 = (n: number) => String(n).padStart(2, '0');

/**
 * FechaHoraHusoGenRegistro for an instant: its wall-clock time in Europe/Madrid to the second,
 * with that instant's offset (+01:00 in winter, +02:00 in summer), e.g. 2024-01-01T19:20:30+01:00.
 * Milliseconds are dropped (truncated).
 */
export function madridTimestamp(at: Date): string {
  const ms = at.getTime();
  if (!Number.isFinite(ms)) throw new RangeError('madridTimestamp: invalid date');
  const whole = Math.floor(ms / 1000) * 1000;
  const parts: Record<string, string> = {};
  for (const p of MADRID.formatToParts(new Date(whole))) parts[p.type] = p.value;
  const part = (type: Intl.DateTimeFormatPartTypes) => Number(parts[type]);
  const y = part('year');
  const mo = part('month');
  const d = part('day');
  const h = part('hour');
  const mi = part('minute');
  const s = part('second');
  const offsetMinutes = Math.round((Date.UTC(y, mo - 1, d, h, mi, s) - whole) / 60_000);
  const sign = offsetMinutes < 0 ? '-' : '+';
  const abs = Math.abs(offsetMinutes);
  return (
    `${String(y).padStart(4, '0')}-${pad2(mo)}-${pad2(d)}T${pad2(h)}:${pad2(mi)}:${pad2(s)}` +
    `${sign}${pad2(Math.floor(abs / 60))}:${pad2(abs % 60)}`
  );
}

// --- building records ---------------------------------------------------------------------------

const NIF = /^[0-9A-Z]{9}$/;
/** ImporteSgn12.2Type as we write it: always two decimals. */
const AMOUNT = /^-?\d{1,12}\.\d{2}$/;
const TIMESTAMP = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}[+-]\d{2}:\d{2}$/;
const HASH = /^[0-9A-F]{64}$/;
/** The QR spec admits printable ASCII (32–126) in numserie; NumSerieFactura is at most 60. */
const SERIES_NUMBER = /^[\x20-\x7e]{1,60}$/;

export class VerifactuInputError extends Error {
  override readonly name = 'VerifactuInputError';
}

function check(ok: boolean, message: string): void {
  if (!ok) throw new VerifactuInputError(message);
}

function validDate(iso: string): boolean {
  const m = ISO_DATE.exec(iso);
  if (!m) return false;
  const d = new Date(Date.UTC(Number(m[1]), Number(m[2]) - 1, Number(m[3])));
  return d.toISOString().slice(0, 10) === iso;
}

/** A Date becomes Madrid's timestamp; a string must already be one (yyyy-mm-ddThh:mm:ss±hh:mm). */
export function generationTimestamp(at: Date | string): string {
  const value = typeof at === 'string' ? at.trim() : madridTimestamp(at);
  check(TIMESTAMP.test(value), `generated_at must be yyyy-mm-ddThh:mm:ss±hh:mm: ${value}`);
  return value;
}

function previousHashOf(previous: { hash: string } | null): string {
  if (!previous) return '';
  check(HASH.test(previous.hash), `the previous record's hash is not a SHA-256 hex string: ${previous.hash}`);
  return previous.hash;
}

function identity(input: { issuer_tax_id: string; number: string; issue_date: string }) {
  const issuer_tax_id = input.issuer_tax_id.trim().toUpperCase();
  const number = input.number.trim();
  const issue_date = input.issue_date.trim();
  check(NIF.test(issuer_tax_id), `issuer_tax_id must be a 9-character Spanish NIF: ${input.issuer_tax_id}`);
  check(SERIES_NUMBER.test(number), `number must be 1 to 60 printable ASCII characters: ${input.number}`);
  check(validDate(issue_date), `issue_date must be YYYY-MM-DD: ${input.issue_date}`);
  return { issuer_tax_id, number, issue_date };
}

export interface AltaInput {
  issuer_tax_id: string;
  number: string;
  issue_date: string;
  invoice_type: VerifactuInvoiceType;
  total_tax: string;
  total_amount: string;
  /** The generation instant (converted with madridTimestamp) or a ready timestamp string. */
  generated_at: Date | string;
}

/** A registro de alta chained after `previous` (null: the first record of the chain). */
export function createAltaRecord(input: AltaInput, previous: { hash: string } | null): VerifactuRecordFields {
  check(
    (VERIFACTU_INVOICE_TYPES as readonly string[]).includes(input.invoice_type),
    `invoice_type must be one of ${VERIFACTU_INVOICE_TYPES.join(', ')}: ${input.invoice_type}`,
  );
  const total_tax = input.total_tax.trim();
  const total_amount = input.total_amount.trim();
  check(AMOUNT.test(total_tax), `total_tax must have two decimals: ${input.total_tax}`);
  check(AMOUNT.test(total_amount), `total_amount must have two decimals: ${input.total_amount}`);
  const fields: Omit<VerifactuRecordFields, 'hash'> = {
    kind: 'alta',
    ...identity(input),
    invoice_type: input.invoice_type,
    total_tax,
    total_amount,
    previous_hash: previousHashOf(previous),
    generated_at: generationTimestamp(input.generated_at),
  };
  return { ...fields, hash: recordHash(fields) };
}

export interface AnulacionInput {
  /** The cancelled invoice's issuer, number and issue date. */
  issuer_tax_id: string;
  number: string;
  issue_date: string;
  generated_at: Date | string;
}

/** A registro de anulación of an invoice, chained after `previous`. */
export function createAnulacionRecord(
  input: AnulacionInput,
  previous: { hash: string } | null,
): VerifactuRecordFields {
  const fields: Omit<VerifactuRecordFields, 'hash'> = {
    kind: 'anulacion',
    ...identity(input),
    invoice_type: '',
    total_tax: '',
    total_amount: '',
    previous_hash: previousHashOf(previous),
    generated_at: generationTimestamp(input.generated_at),
  };
  return { ...fields, hash: recordHash(fields) };
}
