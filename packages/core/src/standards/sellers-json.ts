/**
 * sellers.json (IAB Tech Lab sellers.json specification, version 1.0): building the document our exchange
 * publishes at /sellers.json from its sellers. Pure data in, a plain object (or its JSON text) out.
 *
 * Rules of the spec the builder applies:
 * - `seller_id` is required and unique within the file; a duplicate is an error, never emitted;
 * - `is_confidential` and `is_passthrough` are the integers 0 or 1; `is_passthrough` only when given;
 * - a confidential seller is listed without `name` and `domain`;
 * - a non-confidential seller needs a `name`, and a `domain` too when it is a PUBLISHER or BOTH (an
 *   INTERMEDIARY's domain is written only when known);
 * - `comment`, `contact_address` and `identifiers` only when non-empty.
 * Sellers are sorted by `seller_id` comparing UTF-16 code units (plain `<`, not locale-dependent; so `'10'`
 * comes before `'9'`), which, ids being unique, makes the output the same for the same sellers in any order.
 * The JSON Schema of the format, written from the spec, is `sellers-json.schema.json` beside this file.
 */

export const SELLER_TYPES = ['PUBLISHER', 'INTERMEDIARY', 'BOTH'] as const;
export type SellerType = (typeof SELLER_TYPES)[number];

/** A seller as the application knows it (input of `buildSellersJson`). */
export interface SellerEntry {
  seller_id: string;
  /** Legal name of the entity paid for the inventory; required unless confidential. */
  name: string | null;
  /** Business domain of the entity; required for a non-confidential PUBLISHER or BOTH. */
  domain: string | null;
  seller_type: SellerType;
  is_confidential: boolean;
  is_passthrough?: boolean;
  comment?: string | null;
}

/** An identifier of the advertising system itself (e.g. its TAG id). */
export interface SellersJsonIdentifier {
  name: string;
  value: string;
}

/** A Seller object as written in the file. */
export interface SellersJsonSeller {
  seller_id: string;
  is_confidential: 0 | 1;
  seller_type: SellerType;
  is_passthrough?: 0 | 1;
  name?: string;
  domain?: string;
  comment?: string;
}

/** The sellers.json document. */
export interface SellersJson {
  contact_email: string;
  contact_address?: string;
  version: '1.0';
  identifiers?: SellersJsonIdentifier[];
  sellers: SellersJsonSeller[];
}

export interface BuildSellersJsonOptions {
  contactEmail: string;
  contactAddress?: string | null;
  version?: '1.0';
  identifiers?: SellersJsonIdentifier[];
  sellers: SellerEntry[];
}

/** Sort order of sellers: UTF-16 code units of `seller_id`, independent of the locale. */
export function compareSellerIds(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

function nonEmpty(value: string | null | undefined): string | null {
  const trimmed = value?.trim();
  return trimmed ? trimmed : null;
}

function toSeller(entry: SellerEntry, sellerId: string): SellersJsonSeller {
  if (!(SELLER_TYPES as readonly string[]).includes(entry.seller_type)) {
    throw new Error(
      `sellers.json: seller ${JSON.stringify(sellerId)} has an unknown seller_type ${JSON.stringify(entry.seller_type)}`,
    );
  }
  const seller: SellersJsonSeller = {
    seller_id: sellerId,
    is_confidential: entry.is_confidential ? 1 : 0,
    seller_type: entry.seller_type,
  };
  if (entry.is_passthrough !== undefined) seller.is_passthrough = entry.is_passthrough ? 1 : 0;
  if (!entry.is_confidential) {
    const name = nonEmpty(entry.name);
    if (!name)
      throw new Error(`sellers.json: non-confidential seller ${JSON.stringify(sellerId)} has no name`);
    seller.name = name;
    const domain = nonEmpty(entry.domain)?.toLowerCase();
    if (domain) seller.domain = domain;
    else if (entry.seller_type !== 'INTERMEDIARY') {
      throw new Error(
        `sellers.json: non-confidential ${entry.seller_type} seller ${JSON.stringify(sellerId)} has no domain`,
      );
    }
  }
  const comment = nonEmpty(entry.comment);
  if (comment) seller.comment = comment;
  return seller;
}

/**
 * Builds the sellers.json document. Strings are trimmed and domains lower-cased. Throws a descriptive Error on
 * an empty contact email, an identifier without name or value, an empty or duplicate `seller_id` (compared
 * after trimming), an unknown `seller_type`, a non-confidential seller without a name, or a non-confidential
 * PUBLISHER or BOTH without a domain: the result always follows the spec and never lists a seller twice.
 */
export function buildSellersJson(opts: BuildSellersJsonOptions): SellersJson {
  const contactEmail = nonEmpty(opts.contactEmail);
  if (!contactEmail) throw new Error('sellers.json: the contact email is empty');
  const seen = new Set<string>();
  const sellers = opts.sellers.map((entry) => {
    const sellerId = entry.seller_id.trim();
    if (!sellerId) throw new Error('sellers.json: a seller has an empty seller_id');
    if (seen.has(sellerId)) throw new Error(`sellers.json: duplicate seller_id ${JSON.stringify(sellerId)}`);
    seen.add(sellerId);
    return toSeller(entry, sellerId);
  });
  sellers.sort((a, b) => compareSellerIds(a.seller_id, b.seller_id));

  const contactAddress = nonEmpty(opts.contactAddress);
  const identifiers = (opts.identifiers ?? []).map(({ name, value }) => {
    const identifier = { name: nonEmpty(name), value: nonEmpty(value) };
    if (!identifier.name || !identifier.value) {
      throw new Error(`sellers.json: identifier ${JSON.stringify({ name, value })} needs a name and a value`);
    }
    return { name: identifier.name, value: identifier.value };
  });
  // Keys in a fixed order, so that the same input gives the same text.
  return {
    contact_email: contactEmail,
    ...(contactAddress ? { contact_address: contactAddress } : {}),
    version: opts.version ?? '1.0',
    ...(identifiers.length ? { identifiers } : {}),
    sellers,
  };
}

/** The document as compact JSON text (no spaces), the body served at /sellers.json. */
export function serializeSellersJson(doc: SellersJson): string {
  return JSON.stringify(doc);
}
