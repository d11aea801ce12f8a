/** VERI*FACTU records (issue 22): hash, chain, QR URL, record XML, submission seam. Decision 027. */
export {
  VERIFACTU_INVOICE_TYPES,
  VerifactuInputError,
  aeatDate,
  altaHashInput,
  anulacionHashInput,
  createAltaRecord,
  createAnulacionRecord,
  generationTimestamp,
  huella,
  madridTimestamp,
  recordHash,
  recordHashInput,
  type AltaHashFields,
  type AltaInput,
  type AnulacionHashFields,
  type AnulacionInput,
  type VerifactuInvoiceType,
  type VerifactuRecord,
  type VerifactuRecordFields,
  type VerifactuRecordKind,
} from './record.ts';
export {
  ChainVerifier,
  verifyChain,
  verifyChainPages,
  type ChainBreakReason,
  type ChainResult,
  type ChainVerifierOptions,
} from './chain.ts';
export {
  VERIFACTU_QR_BASE_URLS,
  qrAmount,
  verifactuQrUrl,
  type VerifactuEnvironment,
  type VerifactuQrInput,
} from './qr.ts';
export {
  SF_NAMESPACE,
  registroAltaXml,
  registroAnulacionXml,
  type RegistroAltaXmlInput,
  type RegistroAnulacionXmlInput,
  type VerifactuBreakdownLine,
  type VerifactuCorrection,
  type VerifactuExemption,
  type VerifactuIdType,
  type VerifactuQualification,
  type VerifactuRecipient,
  type VerifactuSystemInfo,
  type XmlOptions,
} from './xml.ts';
export {
  altaFromDocument,
  altaXmlInputFromDocument,
  breakdownOf,
  recipientOf,
  type AltaFromDocumentOptions,
  type EurAmounts,
} from './document.ts';
export { disabledSender, type VerifactuSendResult, type VerifactuSender } from './sender.ts';
