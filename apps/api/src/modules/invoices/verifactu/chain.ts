/**
 * Verifying a VERI*FACTU chain: walk the records in chain order; each record must name the
 * previous record's stored hash as its previous_hash ('' for the first), and its own stored hash
 * must equal the hash recomputed from its fields and that previous hash. The first record that
 * fails is reported:
 * - a changed field (amount, number, date, timestamp…) → 'hash_mismatch' at that record
 *   (expected: the recomputed hash, found: the stored one);
 * - a changed link, or a removed or inserted record → 'previous_hash_mismatch' at the first record
 *   whose previous_hash no longer names its predecessor (expected: the predecessor's hash, found:
 *   the record's previous_hash);
 * - a record whose fields were changed and whose hash was recomputed → 'previous_hash_mismatch'
 *   at the next record (the chain's last record can only be checked against a copy kept elsewhere:
 *   the AEAT's, once records are sent).
 *
 * Streaming: ChainVerifier takes records one at a time (or a page at a time) and keeps only the
 * last hash, so a chain read from the database in pages is verified in constant memory.
 */
import { recordHash, type VerifactuRecord } from './record.ts';

export type ChainBreakReason = 'hash_mismatch' | 'previous_hash_mismatch' | 'invalid_kind';

export type ChainResult =
  | { ok: true; count: number }
  | {
      ok: false;
      /** Position in the chain (0-based, counted from the verifier's startIndex). */
      index: number;
      id: VerifactuRecord['id'];
      expected: string;
      found: string;
      reason: ChainBreakReason;
    };

export interface ChainVerifierOptions {
  /**
   * The stored hash of the record before the first one given ('' when starting at the chain's first
   * record, the default). Lets a verification start in the middle of a chain.
   */
  previousHash?: string;
  /** The chain index of the first record given (default 0); only used in the reported index. */
  startIndex?: number;
}

export class ChainVerifier {
  private lastHash: string;
  private count = 0;
  private readonly startIndex: number;
  private failure: Extract<ChainResult, { ok: false }> | null = null;

  constructor(options: ChainVerifierOptions = {}) {
    this.lastHash = options.previousHash ?? '';
    this.startIndex = options.startIndex ?? 0;
  }

  /** Checks the next record of the chain; false once the chain is broken (later records are ignored). */
  add(record: VerifactuRecord): boolean {
    if (this.failure) return false;
    const index = this.startIndex + this.count;
    if (record.kind !== 'alta' && record.kind !== 'anulacion') {
      return this.fail({
        index,
        id: record.id,
        expected: 'alta | anulacion',
        found: String(record.kind),
        reason: 'invalid_kind',
      });
    }
    if (record.previous_hash !== this.lastHash) {
      return this.fail({
        index,
        id: record.id,
        expected: this.lastHash,
        found: record.previous_hash,
        reason: 'previous_hash_mismatch',
      });
    }
    const expected = recordHash(record, this.lastHash);
    if (expected !== record.hash) {
      return this.fail({ index, id: record.id, expected, found: record.hash, reason: 'hash_mismatch' });
    }
    this.lastHash = record.hash;
    this.count++;
    return true;
  }

  /** Checks a page of records in order; false once the chain is broken. */
  addAll(records: Iterable<VerifactuRecord>): boolean {
    for (const record of records) if (!this.add(record)) return false;
    return !this.failure;
  }

  /** The outcome so far: ok with the number of records checked, or the first broken link. */
  result(): ChainResult {
    return this.failure ?? { ok: true, count: this.count };
  }

  /** The hash of the last verified record ('' or the starting previousHash when none). */
  get hash(): string {
    return this.lastHash;
  }

  private fail(failure: Omit<Extract<ChainResult, { ok: false }>, 'ok'>): false {
    this.failure = { ok: false, ...failure };
    return false;
  }
}

/** Verifies a whole chain given in order (the first record first). */
export function verifyChain(records: Iterable<VerifactuRecord>, options?: ChainVerifierOptions): ChainResult {
  const verifier = new ChainVerifier(options);
  verifier.addAll(records);
  return verifier.result();
}

/**
 * Verifies a chain read in pages (e.g. keyset pagination over the records table); stops reading
 * at the first broken link.
 */
export async function verifyChainPages(
  pages: AsyncIterable<readonly VerifactuRecord[]> | Iterable<readonly VerifactuRecord[]>,
  options?: ChainVerifierOptions,
): Promise<ChainResult> {
  const verifier = new ChainVerifier(options);
  for await (const page of pages) if (!verifier.addAll(page)) break;
  return verifier.result();
}
