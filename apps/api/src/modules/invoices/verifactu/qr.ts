/**
 * The URL printed as the invoice's QR code (art. 20 and 21 of the Orden HAC/1177/2024), per the
 * AEAT's "Características del QR y especificaciones del servicio de cotejo o remisión de
 * información por parte del receptor de la factura" (DetalleEspecificacTecnCodigoQRfactura.pdf):
 * the cotejo service of the AEAT's electronic office with four mandatory parameters, in this order,
 * each value URL-encoded (UTF-8; a "&" or "/" in the number becomes %26 / %2F):
 *   nif       the issuer's NIF (IDEmisorFactura)
 *   numserie  series and number (NumSerieFactura)
 *   fecha     issue date, dd-mm-yyyy (FechaExpedicionFactura)
 *   importe   total (ImporteTotal), a dot as decimal separator; we always write two decimals
 * Base URLs for systems that send their records (VERI*FACTU). The spec's worked example:
 *   https://prewww2.aeat.es/wlpl/TIKE-CONT/ValidarQR?nif=89890001K&numserie=12345678%26G33&fecha=01-01-2024&importe=241.4
 */
import { aeatDate } from './record.ts';

export type VerifactuEnvironment = 'production' | 'test';

export const VERIFACTU_QR_BASE_URLS: Record<VerifactuEnvironment, string> = {
  production: 'https://www2.agenciatributaria.gob.es/wlpl/TIKE-CONT/ValidarQR',
  test: 'https://prewww2.aeat.es/wlpl/TIKE-CONT/ValidarQR',
};

export interface VerifactuQrInput {
  /** The issuer's NIF. */
  nif: string;
  /** Series and number as in the record ("F2026-000001"). */
  number: string;
  /** YYYY-MM-DD (our storage) or dd-mm-yyyy. */
  issueDate: string;
  /** The invoice total as a decimal string ("14944.11", "-3000.00", "241.4"). */
  total: string;
  environment: VerifactuEnvironment;
}

const DECIMAL = /^(-?)(\d{1,12})(?:\.(\d{1,2}))?$/;
const AEAT_DATE = /^\d{2}-\d{2}-\d{4}$/;

/** A decimal string with a dot and exactly two decimals ("241.4" → "241.40"). */
export function qrAmount(total: string): string {
  const m = DECIMAL.exec(total.trim());
  if (!m) throw new RangeError(`importe must be a decimal number with at most two decimals: ${total}`);
  return `${m[1]}${m[2]}.${(m[3] ?? '').padEnd(2, '0')}`;
}

/** The cotejo URL the invoice's QR code encodes. */
export function verifactuQrUrl(input: VerifactuQrInput): string {
  const fecha = aeatDate(input.issueDate.trim());
  if (!AEAT_DATE.test(fecha))
    throw new RangeError(`issueDate must be YYYY-MM-DD or dd-mm-yyyy: ${input.issueDate}`);
  const params: [string, string][] = [
    ['nif', input.nif.trim()],
    ['numserie', input.number.trim()],
    ['fecha', fecha],
    ['importe', qrAmount(input.total)],
  ];
  const query = params.map(([k, v]) => `${k}=${encodeURIComponent(v)}`).join('&');
  return `${VERIFACTU_QR_BASE_URLS[input.environment]}?${query}`;
}
