/**
 * VERI*FACTU records (issue 22, decision 027): pure functions, no database, so these run once (the
 * PostgreSQL pass of the suite skips them). The hash is checked against the AEAT's worked examples
 * ("Detalle de las especificaciones técnicas para generación de la huella o hash de los registros
 * de facturación", v0.1.2, section 6), recomputed here with node:crypto over the literal strings;
 * the QR URL against the QR document's example; the XML is parsed back and its element order
 * compared with SuministroInformacion.xsd's sequences.
 */
import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { create } from 'xmlbuilder2';
import {
  ChainVerifier,
  VerifactuInputError,
  altaFromDocument,
  altaHashInput,
  altaXmlInputFromDocument,
  anulacionHashInput,
  createAltaRecord,
  createAnulacionRecord,
  disabledSender,
  huella,
  madridTimestamp,
  recordHash,
  registroAltaXml,
  registroAnulacionXml,
  verifactuQrUrl,
  verifyChain,
  verifyChainPages,
  SF_NAMESPACE,
  type VerifactuRecord,
  type VerifactuRecordFields,
  type VerifactuSystemInfo,
} from '../src/modules/invoices/verifactu/index.ts';
import { CREDIT_NOTE, DOMESTIC, NOT_SUBJECT, REVERSE_CHARGE } from './invoice-fixtures.ts';

const sha256 = (s: string) => createHash('sha256').update(s, 'utf8').digest('hex').toUpperCase();

// The AEAT's three worked examples, verbatim (hash spec v0.1.2, §6.1–6.3).
const AEAT_ALTA_1 = {
  input:
    'IDEmisorFactura=89890001K&NumSerieFactura=12345678/G33&FechaExpedicionFactura=01-01-2024&TipoFactura=F1' +
    '&CuotaTotal=12.35&ImporteTotal=123.45&Huella=&FechaHoraHusoGenRegistro=2024-01-01T19:20:30+01:00',
  hash: '3C464DAF61ACB827C65FDA19F352A4E3BDC2C640E9E9FC4CC058073F38F12F60',
};
const AEAT_ALTA_2 = {
  input:
    'IDEmisorFactura=89890001K&NumSerieFactura=12345679/G34&FechaExpedicionFactura=01-01-2024&TipoFactura=F1' +
    '&CuotaTotal=12.35&ImporteTotal=123.45&Huella=3C464DAF61ACB827C65FDA19F352A4E3BDC2C640E9E9FC4CC058073F38F12F60' +
    '&FechaHoraHusoGenRegistro=2024-01-01T19:20:35+01:00',
  hash: 'F7B94CFD8924EDFF273501B01EE5153E4CE8F259766F88CF6ACB8935802A2B97',
};
const AEAT_ANULACION_3 = {
  input:
    'IDEmisorFacturaAnulada=89890001K&NumSerieFacturaAnulada=12345679/G34&FechaExpedicionFacturaAnulada=01-01-2024' +
    '&Huella=F7B94CFD8924EDFF273501B01EE5153E4CE8F259766F88CF6ACB8935802A2B97' +
    '&FechaHoraHusoGenRegistro=2024-01-01T19:20:40+01:00',
  hash: '177547C0D57AC74748561D054A9CEC14B4C4EA23D1BEFD6F2E69E3A388F90C68',
};

const SYSTEM: VerifactuSystemInfo = {
  producerName: 'Adtech Media Iberia, S.L.',
  producerNif: 'B86561412',
  name: 'Backoffice',
  id: 'BO',
  version: '0.1.0',
  installationNumber: 'madrid-1',
  onlyVerifactu: true,
  multipleTaxpayersPossible: false,
  multipleTaxpayers: false,
};

/** The chain of the fixtures: the domestic invoice, the reverse-charge one, its credit note. */
function chainOfThree(): VerifactuRecord[] {
  const a = altaFromDocument(DOMESTIC, null, new Date('2026-11-02T09:00:00Z'));
  const b = altaFromDocument(REVERSE_CHARGE, a, new Date('2026-11-02T09:00:05Z'));
  const c = altaFromDocument(CREDIT_NOTE, b, new Date('2026-11-20T16:30:00Z'));
  return [a, b, c].map((r, i) => ({ id: i + 1, ...r }));
}

// A parsed XML element, as much of the DOM as the tests read.
interface XmlElement {
  nodeType: number;
  localName: string;
  namespaceURI: string | null;
  textContent: string | null;
  childNodes: ArrayLike<XmlElement>;
}
const parse = (xml: string) => create(xml).root().node as unknown as XmlElement;
const children = (el: XmlElement) => Array.from(el.childNodes).filter((n) => n.nodeType === 1);
const names = (el: XmlElement) => children(el).map((c) => c.localName);
function at(el: XmlElement, path: string): XmlElement {
  return path.split('/').reduce((node, name) => {
    const found = children(node).find((c) => c.localName === name);
    if (!found) throw new Error(`no ${name} in ${node.localName}`);
    return found;
  }, el);
}
const text = (el: XmlElement, path: string) => at(el, path).textContent;

describe.skipIf(Boolean(process.env.TEST_DATABASE_URL))('VERI*FACTU records', () => {
  describe('hash (huella): the AEAT worked examples', () => {
    it('the published hashes are the SHA-256 of the published strings (node:crypto, independently)', () => {
      expect(sha256(AEAT_ALTA_1.input)).toBe(AEAT_ALTA_1.hash);
      expect(sha256(AEAT_ALTA_2.input)).toBe(AEAT_ALTA_2.hash);
      expect(sha256(AEAT_ANULACION_3.input)).toBe(AEAT_ANULACION_3.hash);
    });

    it('builds the same strings and hashes from the fields', () => {
      const first = {
        IDEmisorFactura: '89890001K',
        NumSerieFactura: '12345678/G33',
        FechaExpedicionFactura: '01-01-2024',
        TipoFactura: 'F1',
        CuotaTotal: '12.35',
        ImporteTotal: '123.45',
        Huella: '',
        FechaHoraHusoGenRegistro: '2024-01-01T19:20:30+01:00',
      };
      expect(altaHashInput(first)).toBe(AEAT_ALTA_1.input);
      expect(huella(altaHashInput(first))).toBe(AEAT_ALTA_1.hash);
      const second = {
        ...first,
        NumSerieFactura: '12345679/G34',
        Huella: AEAT_ALTA_1.hash,
        FechaHoraHusoGenRegistro: '2024-01-01T19:20:35+01:00',
      };
      expect(altaHashInput(second)).toBe(AEAT_ALTA_2.input);
      expect(huella(altaHashInput(second))).toBe(AEAT_ALTA_2.hash);
      const cancel = {
        IDEmisorFacturaAnulada: '89890001K',
        NumSerieFacturaAnulada: '12345679/G34',
        FechaExpedicionFacturaAnulada: '01-01-2024',
        Huella: AEAT_ALTA_2.hash,
        FechaHoraHusoGenRegistro: '2024-01-01T19:20:40+01:00',
      };
      expect(anulacionHashInput(cancel)).toBe(AEAT_ANULACION_3.input);
      expect(huella(anulacionHashInput(cancel))).toBe(AEAT_ANULACION_3.hash);
      // Values are trimmed before hashing.
      expect(
        huella(altaHashInput({ ...first, NumSerieFactura: ' 12345678/G33 ', CuotaTotal: '12.35 ' })),
      ).toBe(AEAT_ALTA_1.hash);
    });

    it('records built from our storage form (YYYY-MM-DD, a Date for the time) give the published hashes and chain', () => {
      const base = {
        issuer_tax_id: '89890001K',
        issue_date: '2024-01-01',
        invoice_type: 'F1' as const,
        total_tax: '12.35',
        total_amount: '123.45',
      };
      const first = createAltaRecord(
        { ...base, number: '12345678/G33', generated_at: new Date('2024-01-01T18:20:30Z') },
        null,
      );
      expect(first.generated_at).toBe('2024-01-01T19:20:30+01:00');
      expect(first.previous_hash).toBe('');
      expect(first.hash).toBe(AEAT_ALTA_1.hash);
      const second = createAltaRecord(
        { ...base, number: '12345679/G34', generated_at: '2024-01-01T19:20:35+01:00' },
        first,
      );
      expect(second.previous_hash).toBe(AEAT_ALTA_1.hash);
      expect(second.hash).toBe(AEAT_ALTA_2.hash);
      const cancel = createAnulacionRecord(
        {
          issuer_tax_id: '89890001K',
          number: '12345679/G34',
          issue_date: '2024-01-01',
          generated_at: '2024-01-01T19:20:40+01:00',
        },
        second,
      );
      expect(cancel).toMatchObject({ kind: 'anulacion', invoice_type: '', total_tax: '', total_amount: '' });
      expect(cancel.hash).toBe(AEAT_ANULACION_3.hash);
      expect(verifyChain([first, second, cancel].map((r, i) => ({ id: `r${i}`, ...r })))).toEqual({
        ok: true,
        count: 3,
      });
    });

    it('refuses what the hash or the XML could not carry', () => {
      const ok = {
        issuer_tax_id: 'B86561412',
        number: 'F2026-000001',
        issue_date: '2026-11-02',
        invoice_type: 'F1' as const,
        total_tax: '21.00',
        total_amount: '121.00',
        generated_at: '2026-11-02T10:00:00+01:00',
      };
      expect(() => createAltaRecord(ok, null)).not.toThrow();
      expect(() => createAltaRecord({ ...ok, total_tax: '21' }, null)).toThrow(VerifactuInputError);
      expect(() => createAltaRecord({ ...ok, total_amount: '1,234.00' }, null)).toThrow(VerifactuInputError);
      expect(() => createAltaRecord({ ...ok, issue_date: '02-11-2026' }, null)).toThrow(VerifactuInputError);
      expect(() => createAltaRecord({ ...ok, issue_date: '2026-02-30' }, null)).toThrow(VerifactuInputError);
      expect(() => createAltaRecord({ ...ok, generated_at: '2026-11-02 10:00:00' }, null)).toThrow(
        VerifactuInputError,
      );
      expect(() => createAltaRecord({ ...ok, issuer_tax_id: 'ESB86561412' }, null)).toThrow(
        VerifactuInputError,
      );
      expect(() => createAltaRecord(ok, { hash: 'abc' })).toThrow(VerifactuInputError);
    });
  });

  describe('generation timestamp: Europe/Madrid with its offset', () => {
    it('winter is +01:00 and summer +02:00', () => {
      expect(madridTimestamp(new Date('2026-01-15T10:00:00.700Z'))).toBe('2026-01-15T11:00:00+01:00');
      expect(madridTimestamp(new Date('2026-07-15T22:30:05Z'))).toBe('2026-07-16T00:30:05+02:00');
      expect(madridTimestamp(new Date('2026-12-31T23:59:59.999Z'))).toBe('2027-01-01T00:59:59+01:00');
    });

    it('follows the change of time in March and October', () => {
      // 2026: summer time from Sunday 29 March 01:00 UTC to Sunday 25 October 01:00 UTC.
      expect(madridTimestamp(new Date('2026-03-29T00:59:59Z'))).toBe('2026-03-29T01:59:59+01:00');
      expect(madridTimestamp(new Date('2026-03-29T01:00:00Z'))).toBe('2026-03-29T03:00:00+02:00');
      expect(madridTimestamp(new Date('2026-10-25T00:59:59Z'))).toBe('2026-10-25T02:59:59+02:00');
      expect(madridTimestamp(new Date('2026-10-25T01:00:00Z'))).toBe('2026-10-25T02:00:00+01:00');
    });

    it('refuses an invalid date', () => {
      expect(() => madridTimestamp(new Date('nope'))).toThrow(RangeError);
    });
  });

  describe('chain', () => {
    it('a chain of three records built from the fixtures verifies', () => {
      const chain = chainOfThree();
      expect(chain.map((r) => r.invoice_type)).toEqual(['F1', 'F1', 'R1']);
      expect(chain[1]!.previous_hash).toBe(chain[0]!.hash);
      expect(chain[2]!.previous_hash).toBe(chain[1]!.hash);
      expect(chain[0]!.generated_at).toBe('2026-11-02T10:00:00+01:00');
      expect(verifyChain(chain)).toEqual({ ok: true, count: 3 });
      expect(verifyChain([])).toEqual({ ok: true, count: 0 });
    });

    it('finds a changed field at its record', () => {
      const chain = chainOfThree();
      const tampered = chain.map((r, i) => (i === 1 ? { ...r, total_amount: '17500.00' } : r));
      expect(verifyChain(tampered)).toEqual({
        ok: false,
        index: 1,
        id: 2,
        expected: recordHash(tampered[1]!),
        found: chain[1]!.hash,
        reason: 'hash_mismatch',
      });
      const renumbered = chain.map((r, i) => (i === 2 ? { ...r, number: 'R2026-000002' } : r));
      expect(verifyChain(renumbered)).toMatchObject({ ok: false, index: 2, id: 3, reason: 'hash_mismatch' });
      const retimed = chain.map((r, i) =>
        i === 0 ? { ...r, generated_at: '2026-11-02T10:00:01+01:00' } : r,
      );
      expect(verifyChain(retimed)).toMatchObject({ ok: false, index: 0, id: 1, reason: 'hash_mismatch' });
    });

    it('finds a changed link at its record', () => {
      const chain = chainOfThree();
      const relinked = chain.map((r, i) => (i === 2 ? { ...r, previous_hash: chain[0]!.hash } : r));
      expect(verifyChain(relinked)).toEqual({
        ok: false,
        index: 2,
        id: 3,
        expected: chain[1]!.hash,
        found: chain[0]!.hash,
        reason: 'previous_hash_mismatch',
      });
      const notFirst = chain.map((r, i) => (i === 0 ? { ...r, previous_hash: chain[2]!.hash } : r));
      expect(verifyChain(notFirst)).toMatchObject({
        ok: false,
        index: 0,
        expected: '',
        reason: 'previous_hash_mismatch',
      });
    });

    it('finds a deleted record at the record after it', () => {
      const chain = chainOfThree();
      expect(verifyChain([chain[0]!, chain[2]!])).toEqual({
        ok: false,
        index: 1,
        id: 3,
        expected: chain[0]!.hash,
        found: chain[1]!.hash,
        reason: 'previous_hash_mismatch',
      });
      // Without the first record, the chain no longer starts with an empty previous hash.
      expect(verifyChain(chain.slice(1))).toMatchObject({ ok: false, index: 0, id: 2, expected: '' });
    });

    it('finds a changed record whose hash was recomputed at the next record', () => {
      const chain = chainOfThree();
      const changed = { ...chain[1]!, total_amount: '17500.00' };
      changed.hash = recordHash(changed);
      expect(verifyChain([chain[0]!, changed, chain[2]!])).toMatchObject({
        ok: false,
        index: 2,
        id: 3,
        expected: changed.hash,
        found: chain[1]!.hash,
        reason: 'previous_hash_mismatch',
      });
    });

    it('verifies incrementally, in pages, and from the middle of a chain', async () => {
      const chain = chainOfThree();
      const verifier = new ChainVerifier();
      for (const r of chain) expect(verifier.add(r)).toBe(true);
      expect(verifier.result()).toEqual({ ok: true, count: 3 });
      expect(verifier.hash).toBe(chain[2]!.hash);

      expect(await verifyChainPages([[chain[0]!], [chain[1]!, chain[2]!]])).toEqual({ ok: true, count: 3 });
      async function* pages() {
        yield [chain[0]!, chain[1]!];
        yield [{ ...chain[2]!, total_tax: '1.00' }];
      }
      expect(await verifyChainPages(pages())).toMatchObject({
        ok: false,
        index: 2,
        id: 3,
        reason: 'hash_mismatch',
      });

      const tail = new ChainVerifier({ previousHash: chain[0]!.hash, startIndex: 1 });
      tail.addAll(chain.slice(1));
      expect(tail.result()).toEqual({ ok: true, count: 2 });
      const broken = new ChainVerifier({ previousHash: chain[1]!.hash, startIndex: 1 });
      expect(broken.addAll(chain.slice(1))).toBe(false);
      expect(broken.result()).toMatchObject({ ok: false, index: 1, id: 2, reason: 'previous_hash_mismatch' });
    });

    it('a 100,000-record chain verifies', () => {
      const n = 100_000;
      const t0 = performance.now();
      const chain: VerifactuRecord[] = new Array(n);
      let previous: VerifactuRecordFields | null = null;
      for (let i = 0; i < n; i++) {
        const seconds = String(i % 60).padStart(2, '0');
        const record: VerifactuRecordFields =
          i % 50 === 49
            ? createAnulacionRecord(
                {
                  issuer_tax_id: 'B86561412',
                  number: `F2026-${String(i).padStart(6, '0')}`,
                  issue_date: '2026-11-02',
                  generated_at: `2026-11-02T10:00:${seconds}+01:00`,
                },
                previous,
              )
            : createAltaRecord(
                {
                  issuer_tax_id: 'B86561412',
                  number: `F2026-${String(i + 1).padStart(6, '0')}`,
                  issue_date: '2026-11-02',
                  invoice_type: 'F1',
                  total_tax: `${(i % 1000) + 1}.21`,
                  total_amount: `${(i % 1000) * 10 + 7}.05`,
                  generated_at: `2026-11-02T10:00:${seconds}+01:00`,
                },
                previous,
              );
        chain[i] = { id: i + 1, ...record };
        previous = record;
      }
      const t1 = performance.now();
      const result = verifyChain(chain);
      const t2 = performance.now();
      console.log(
        `VERI*FACTU: built ${n} records in ${Math.round(t1 - t0)} ms, verified in ${Math.round(t2 - t1)} ms`,
      );
      expect(result).toEqual({ ok: true, count: n });

      chain[n - 10] = { ...chain[n - 10]!, number: 'F2026-999999' };
      expect(verifyChain(chain)).toMatchObject({
        ok: false,
        index: n - 10,
        id: n - 9,
        reason: 'hash_mismatch',
      });
    });
  });

  describe('from an invoice document', () => {
    it('uses the number, VAT and total of the document, F1 for invoices and R1 for credit notes', () => {
      const a = altaFromDocument(DOMESTIC, null, '2026-11-02T10:00:00+01:00');
      expect(a).toMatchObject({
        kind: 'alta',
        issuer_tax_id: 'B86561412',
        number: 'F2026-000001',
        issue_date: '2026-11-02',
        invoice_type: 'F1',
        total_tax: '2593.61',
        total_amount: '14944.11',
        previous_hash: '',
      });
      expect(a.hash).toBe(
        sha256(
          'IDEmisorFactura=B86561412&NumSerieFactura=F2026-000001&FechaExpedicionFactura=02-11-2026&TipoFactura=F1' +
            '&CuotaTotal=2593.61&ImporteTotal=14944.11&Huella=&FechaHoraHusoGenRegistro=2026-11-02T10:00:00+01:00',
        ),
      );
      const c = altaFromDocument(CREDIT_NOTE, a, '2026-11-20T17:30:00+01:00');
      expect(c).toMatchObject({
        invoice_type: 'R1',
        total_tax: '0.00',
        total_amount: '-3000.00',
        previous_hash: a.hash,
      });
      expect(
        altaFromDocument(CREDIT_NOTE, a, '2026-11-20T17:30:00+01:00', { correctiveType: 'R4' }).invoice_type,
      ).toBe('R4');
    });

    it('needs the euro amounts of a document in another currency', () => {
      expect(() => altaFromDocument(NOT_SUBJECT, null, '2026-11-03T10:00:00+01:00')).toThrow(/euros/);
      const r = altaFromDocument(NOT_SUBJECT, null, '2026-11-03T10:00:00+01:00', {
        eur: { base: '5480.12', vat_amount: '0.00', total: '5480.12' },
      });
      expect(r).toMatchObject({ total_tax: '0.00', total_amount: '5480.12' });
    });
  });

  describe('QR URL', () => {
    it('has the four parameters, encoded, on the production host', () => {
      const url = new URL(
        verifactuQrUrl({
          nif: 'B86561412',
          number: 'F2026/000123',
          issueDate: '2026-11-02',
          total: '14944.11',
          environment: 'production',
        }),
      );
      expect(url.origin + url.pathname).toBe(
        'https://www2.agenciatributaria.gob.es/wlpl/TIKE-CONT/ValidarQR',
      );
      expect([...url.searchParams.keys()]).toEqual(['nif', 'numserie', 'fecha', 'importe']);
      expect(url.searchParams.get('nif')).toBe('B86561412');
      expect(url.searchParams.get('numserie')).toBe('F2026/000123');
      expect(url.searchParams.get('fecha')).toBe('02-11-2026');
      expect(url.searchParams.get('importe')).toBe('14944.11');
      expect(url.search).toContain('numserie=F2026%2F000123&');
    });

    it("reproduces the AEAT's example on the test host (an & in the number), with two decimals", () => {
      const url = verifactuQrUrl({
        nif: '89890001K',
        number: '12345678&G33',
        issueDate: '01-01-2024',
        total: '241.4',
        environment: 'test',
      });
      // The QR document's example ends in importe=241.4; we always write the two decimals.
      expect(url).toBe(
        'https://prewww2.aeat.es/wlpl/TIKE-CONT/ValidarQR?nif=89890001K&numserie=12345678%26G33&fecha=01-01-2024&importe=241.40',
      );
      const parsed = new URL(url);
      expect(parsed.host).toBe('prewww2.aeat.es');
      expect(parsed.searchParams.get('numserie')).toBe('12345678&G33');
      expect(parsed.searchParams.get('importe')).toBe('241.40');
    });

    it('writes a credit note total with its sign and refuses a malformed one', () => {
      const url = new URL(
        verifactuQrUrl({
          nif: 'B86561412',
          number: 'R2026-000001',
          issueDate: '2026-11-20',
          total: '-3000',
          environment: 'test',
        }),
      );
      expect(url.searchParams.get('importe')).toBe('-3000.00');
      expect(() =>
        verifactuQrUrl({
          nif: 'B86561412',
          number: 'X',
          issueDate: '2026-11-20',
          total: '3,000.00',
          environment: 'test',
        }),
      ).toThrow(RangeError);
      expect(() =>
        verifactuQrUrl({
          nif: 'B86561412',
          number: 'X',
          issueDate: '20/11/2026',
          total: '1.00',
          environment: 'test',
        }),
      ).toThrow(RangeError);
    });
  });

  describe('record XML', () => {
    const ALTA_ORDER = [
      'IDVersion',
      'IDFactura',
      'NombreRazonEmisor',
      'TipoFactura',
      'DescripcionOperacion',
      'Destinatarios',
      'Desglose',
      'CuotaTotal',
      'ImporteTotal',
      'Encadenamiento',
      'SistemaInformatico',
      'FechaHoraHusoGenRegistro',
      'TipoHuella',
      'Huella',
    ];
    const SYSTEM_ORDER = [
      'NombreRazon',
      'NIF',
      'NombreSistemaInformatico',
      'IdSistemaInformatico',
      'Version',
      'NumeroInstalacion',
      'TipoUsoPosibleSoloVerifactu',
      'TipoUsoPosibleMultiOT',
      'IndicadorMultiplesOT',
    ];

    it('writes a domestic invoice, the first record of the chain, in schema order', () => {
      const [a] = chainOfThree();
      const root = parse(registroAltaXml(altaXmlInputFromDocument(DOMESTIC, a!, null, SYSTEM)));
      expect(root.localName).toBe('RegistroAlta');
      expect(root.namespaceURI).toBe(SF_NAMESPACE);
      expect(names(root)).toEqual(ALTA_ORDER);
      expect(text(root, 'IDVersion')).toBe('1.0');
      expect(names(at(root, 'IDFactura'))).toEqual([
        'IDEmisorFactura',
        'NumSerieFactura',
        'FechaExpedicionFactura',
      ]);
      expect(text(root, 'IDFactura/IDEmisorFactura')).toBe('B86561412');
      expect(text(root, 'IDFactura/NumSerieFactura')).toBe('F2026-000001');
      expect(text(root, 'IDFactura/FechaExpedicionFactura')).toBe('02-11-2026');
      expect(text(root, 'NombreRazonEmisor')).toBe('Adtech Media Iberia, S.L.');
      expect(text(root, 'TipoFactura')).toBe('F1');
      expect(text(root, 'DescripcionOperacion')).toBe(
        'Publicidad programática — banner (octubre 2026); Publicidad programática — vídeo (octubre 2026)',
      );
      expect(names(at(root, 'Destinatarios/IDDestinatario'))).toEqual(['NombreRazon', 'NIF']);
      expect(text(root, 'Destinatarios/IDDestinatario/NIF')).toBe('A28017895');
      const line = at(root, 'Desglose/DetalleDesglose');
      expect(names(line)).toEqual([
        'Impuesto',
        'ClaveRegimen',
        'CalificacionOperacion',
        'TipoImpositivo',
        'BaseImponibleOimporteNoSujeto',
        'CuotaRepercutida',
      ]);
      expect(children(line).map((c) => c.textContent)).toEqual([
        '01',
        '01',
        'S1',
        '21.00',
        '12350.50',
        '2593.61',
      ]);
      expect(text(root, 'CuotaTotal')).toBe('2593.61');
      expect(text(root, 'ImporteTotal')).toBe('14944.11');
      expect(names(at(root, 'Encadenamiento'))).toEqual(['PrimerRegistro']);
      expect(text(root, 'Encadenamiento/PrimerRegistro')).toBe('S');
      expect(names(at(root, 'SistemaInformatico'))).toEqual(SYSTEM_ORDER);
      expect(children(at(root, 'SistemaInformatico')).map((c) => c.textContent)).toEqual([
        'Adtech Media Iberia, S.L.',
        'B86561412',
        'Backoffice',
        'BO',
        '0.1.0',
        'madrid-1',
        'S',
        'N',
        'N',
      ]);
      expect(text(root, 'FechaHoraHusoGenRegistro')).toBe('2026-11-02T10:00:00+01:00');
      expect(text(root, 'TipoHuella')).toBe('01');
      expect(text(root, 'Huella')).toBe(a!.hash);
      // The XML carries the values the hash covers.
      expect(
        sha256(
          `IDEmisorFactura=${text(root, 'IDFactura/IDEmisorFactura')}&NumSerieFactura=${text(root, 'IDFactura/NumSerieFactura')}` +
            `&FechaExpedicionFactura=${text(root, 'IDFactura/FechaExpedicionFactura')}&TipoFactura=${text(root, 'TipoFactura')}` +
            `&CuotaTotal=${text(root, 'CuotaTotal')}&ImporteTotal=${text(root, 'ImporteTotal')}&Huella=` +
            `&FechaHoraHusoGenRegistro=${text(root, 'FechaHoraHusoGenRegistro')}`,
        ),
      ).toBe(text(root, 'Huella'));
    });

    it('writes an intra-EU reverse-charge invoice: IDOtro 02 with the VAT prefix, N2, and the previous record', () => {
      const [a, b] = chainOfThree();
      const root = parse(registroAltaXml(altaXmlInputFromDocument(REVERSE_CHARGE, b!, a!, SYSTEM)));
      expect(names(root)).toEqual(ALTA_ORDER);
      const other = at(root, 'Destinatarios/IDDestinatario/IDOtro');
      expect(names(other)).toEqual(['CodigoPais', 'IDType', 'ID']);
      expect(children(other).map((c) => c.textContent)).toEqual(['FR', '02', 'FR40303265045']);
      expect(text(root, 'Destinatarios/IDDestinatario/NombreRazon')).toBe('Régie Publicitaire Lumière SAS');
      const line = at(root, 'Desglose/DetalleDesglose');
      expect(names(line)).toEqual([
        'Impuesto',
        'ClaveRegimen',
        'CalificacionOperacion',
        'BaseImponibleOimporteNoSujeto',
      ]);
      expect(children(line).map((c) => c.textContent)).toEqual(['01', '01', 'N2', '18750.00']);
      expect(text(root, 'CuotaTotal')).toBe('0.00');
      expect(text(root, 'ImporteTotal')).toBe('18750.00');
      const previous = at(root, 'Encadenamiento/RegistroAnterior');
      expect(names(previous)).toEqual([
        'IDEmisorFactura',
        'NumSerieFactura',
        'FechaExpedicionFactura',
        'Huella',
      ]);
      expect(children(previous).map((c) => c.textContent)).toEqual([
        'B86561412',
        'F2026-000001',
        '02-11-2026',
        a!.hash,
      ]);
    });

    it('writes a non-EU invoice with IDOtro 04 and N2, in euros', () => {
      const eur = { base: '5480.12', vat_amount: '0.00', total: '5480.12' };
      const record = altaFromDocument(NOT_SUBJECT, null, '2026-11-03T10:00:00+01:00', { eur });
      const root = parse(
        registroAltaXml(altaXmlInputFromDocument(NOT_SUBJECT, record, null, SYSTEM, { eur })),
      );
      expect(children(at(root, 'Destinatarios/IDDestinatario/IDOtro')).map((c) => c.textContent)).toEqual([
        'US',
        '04',
        '84-1234567',
      ]);
      expect(children(at(root, 'Desglose/DetalleDesglose')).map((c) => c.textContent)).toEqual([
        '01',
        '01',
        'N2',
        '5480.12',
      ]);
      expect(text(root, 'ImporteTotal')).toBe('5480.12');
    });

    it('writes a credit note as R1 por diferencias naming the corrected invoice', () => {
      const [, b, c] = chainOfThree();
      const root = parse(registroAltaXml(altaXmlInputFromDocument(CREDIT_NOTE, c!, b!, SYSTEM)));
      expect(names(root)).toEqual([
        'IDVersion',
        'IDFactura',
        'NombreRazonEmisor',
        'TipoFactura',
        'TipoRectificativa',
        'FacturasRectificadas',
        ...ALTA_ORDER.slice(4),
      ]);
      expect(text(root, 'TipoFactura')).toBe('R1');
      expect(text(root, 'TipoRectificativa')).toBe('I');
      const corrected = at(root, 'FacturasRectificadas/IDFacturaRectificada');
      expect(children(corrected).map((e) => [e.localName, e.textContent])).toEqual([
        ['IDEmisorFactura', 'B86561412'],
        ['NumSerieFactura', 'F2026-000002'],
        ['FechaExpedicionFactura', '02-11-2026'],
      ]);
      expect(text(root, 'DescripcionOperacion')).toBe(
        'Discrepancy with the partner’s figures for October; Programmatic advertising — banner (October 2026)',
      );
      expect(text(root, 'Desglose/DetalleDesglose/BaseImponibleOimporteNoSujeto')).toBe('-3000.00');
      expect(text(root, 'ImporteTotal')).toBe('-3000.00');
      expect(text(root, 'Encadenamiento/RegistroAnterior/Huella')).toBe(b!.hash);
    });

    it('writes a RegistroAnulacion in schema order', () => {
      const [, , c] = chainOfThree();
      const cancel = createAnulacionRecord(
        {
          issuer_tax_id: 'B86561412',
          number: 'F2026-000001',
          issue_date: '2026-11-02',
          generated_at: new Date('2026-11-21T08:00:00Z'),
        },
        c!,
      );
      const xml = registroAnulacionXml({ record: cancel, previous: c!, system: SYSTEM }, { headless: true });
      expect(xml.startsWith('<?xml')).toBe(false);
      const root = parse(xml);
      expect(root.localName).toBe('RegistroAnulacion');
      expect(names(root)).toEqual([
        'IDVersion',
        'IDFactura',
        'Encadenamiento',
        'SistemaInformatico',
        'FechaHoraHusoGenRegistro',
        'TipoHuella',
        'Huella',
      ]);
      expect(children(at(root, 'IDFactura')).map((e) => [e.localName, e.textContent])).toEqual([
        ['IDEmisorFacturaAnulada', 'B86561412'],
        ['NumSerieFacturaAnulada', 'F2026-000001'],
        ['FechaExpedicionFacturaAnulada', '02-11-2026'],
      ]);
      expect(text(root, 'Encadenamiento/RegistroAnterior/NumSerieFactura')).toBe('R2026-000001');
      expect(text(root, 'FechaHoraHusoGenRegistro')).toBe('2026-11-21T09:00:00+01:00');
      expect(text(root, 'Huella')).toBe(cancel.hash);
      expect(verifyChain([...chainOfThree(), { id: 4, ...cancel }])).toEqual({ ok: true, count: 4 });
    });

    it('escapes text and refuses inconsistent input', () => {
      const [a, b] = chainOfThree();
      const input = altaXmlInputFromDocument(DOMESTIC, a!, null, SYSTEM);
      const xml = registroAltaXml({ ...input, issuerName: 'A&B <Iberia>' });
      expect(xml).toContain('A&amp;B &lt;Iberia&gt;');
      expect(text(parse(xml), 'NombreRazonEmisor')).toBe('A&B <Iberia>');
      // The previous record given must be the one the record is chained to.
      expect(() => registroAltaXml({ ...input, previous: b! })).toThrow(VerifactuInputError);
      // The breakdown must add up to the totals the hash covers.
      expect(() =>
        registroAltaXml({ ...input, breakdown: [{ ...input.breakdown[0]!, base: '12350.49' }] }),
      ).toThrow(/ImporteTotal/);
      expect(() => registroAltaXml({ ...input, recipient: null })).toThrow(VerifactuInputError);
      expect(() => registroAnulacionXml({ record: a!, previous: null, system: SYSTEM })).toThrow(
        VerifactuInputError,
      );
    });
  });

  it('the default sender never sends', async () => {
    expect(await disabledSender.send('<RegistroAlta/>')).toEqual({
      accepted: false,
      error: 'VERI*FACTU submission is disabled',
    });
  });
});
