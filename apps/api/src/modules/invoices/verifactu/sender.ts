/**
 * Sending records to the AEAT (the SistemaFacturacion SOAP service, authenticated with the
 * taxpayer's client certificate) is out of scope: only the seam is here, and the default sender
 * never sends. A real sender would wrap the records in RegFactuSistemaFacturacion (SuministroLR.xsd)
 * and return the AEAT's CSV when the submission is accepted.
 */
export interface VerifactuSendResult {
  accepted: boolean;
  /** Código Seguro de Verificación of an accepted submission. */
  csv?: string;
  error?: string;
}

export interface VerifactuSender {
  send(xml: string): Promise<VerifactuSendResult>;
}

/** The default: sending is off; nothing leaves the server. */
export const disabledSender: VerifactuSender = {
  async send() {
    return { accepted: false, error: 'VERI*FACTU submission is disabled' };
  },
};
