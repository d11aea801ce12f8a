/**
 * The JSON Schemas the JSON builder checks documents against (json.ts; decision 039), for the API's
 * validator and the schema list it serves. Not imported by the web app (the screen fetches
 * `GET /v1/builders/json/schemas`).
 *
 * - OpenRTB 2.6 BidRequest, Imp and Pmp: the IAB Tech Lab's files vendored in
 *   ../standards/openrtb-2.6/ (README there), imported as they are. They declare draft 2020-12 but
 *   use only keywords that mean the same in draft-07, which the repo's Ajv 6 reads once their
 *   `$schema` line is set aside (as openrtb-auction-schema.ts does). They are open (OpenRTB 2.6
 *   section 2.6: receivers tolerate unknown fields), so the validator also warns about fields they
 *   do not define outside `ext` (`OPEN_SCHEMAS`).
 * - Our demand partner integration configuration and ad unit configuration: written here from the
 *   same constants the partner, deal and floor screens validate with (demand_partners, deals,
 *   floor_rules and ad_units tables), closed (`additionalProperties: false`) so a misspelt field
 *   is an error.
 */
import { FLOOR_TYPES } from '../floors.ts';
import { COUNTRIES, ENVIRONMENTS, FORMATS, SIZES } from '../reports.ts';
import { CURRENCIES } from '../resources/companies.ts';
import { AUCTION_TYPES, DEAL_CODE, DEAL_CODE_MAX, DEAL_TYPES } from '../resources/deals.ts';
import {
  CONSENT_FRAMEWORKS,
  MAX_TIMEOUT_MS,
  MIN_TIMEOUT_MS,
  PARTNER_ENVIRONMENTS,
  PARTNER_STATUSES,
  PARTNER_TYPES,
} from '../resources/demand-partners.ts';
import { MAX_QPS_CAP, OPENRTB_VERSIONS } from '../resources/endpoints.ts';
import { HOSTNAME } from '../resources/field-schemas.ts';
import appSchema from '../standards/openrtb-2.6/App.json' with { type: 'json' };
import audioSchema from '../standards/openrtb-2.6/Audio.json' with { type: 'json' };
import bannerSchema from '../standards/openrtb-2.6/Banner.json' with { type: 'json' };
import bidRequestSchema from '../standards/openrtb-2.6/BidRequest.json' with { type: 'json' };
import brandVersionSchema from '../standards/openrtb-2.6/BrandVersion.json' with { type: 'json' };
import channelSchema from '../standards/openrtb-2.6/Channel.json' with { type: 'json' };
import contentSchema from '../standards/openrtb-2.6/Content.json' with { type: 'json' };
import doohSchema from '../standards/openrtb-2.6/DOOH.json' with { type: 'json' };
import dataSchema from '../standards/openrtb-2.6/Data.json' with { type: 'json' };
import dealSchema from '../standards/openrtb-2.6/Deal.json' with { type: 'json' };
import deviceSchema from '../standards/openrtb-2.6/Device.json' with { type: 'json' };
import durFloorsSchema from '../standards/openrtb-2.6/DurFloors.json' with { type: 'json' };
import eidSchema from '../standards/openrtb-2.6/EID.json' with { type: 'json' };
import formatSchema from '../standards/openrtb-2.6/Format.json' with { type: 'json' };
import geoSchema from '../standards/openrtb-2.6/Geo.json' with { type: 'json' };
import impSchema from '../standards/openrtb-2.6/Imp.json' with { type: 'json' };
import metricSchema from '../standards/openrtb-2.6/Metric.json' with { type: 'json' };
import nativeSchema from '../standards/openrtb-2.6/Native.json' with { type: 'json' };
import networkSchema from '../standards/openrtb-2.6/Network.json' with { type: 'json' };
import pmpSchema from '../standards/openrtb-2.6/Pmp.json' with { type: 'json' };
import producerSchema from '../standards/openrtb-2.6/Producer.json' with { type: 'json' };
import publisherSchema from '../standards/openrtb-2.6/Publisher.json' with { type: 'json' };
import qtySchema from '../standards/openrtb-2.6/Qty.json' with { type: 'json' };
import refSettingsSchema from '../standards/openrtb-2.6/RefSettings.json' with { type: 'json' };
import refreshSchema from '../standards/openrtb-2.6/Refresh.json' with { type: 'json' };
import regsSchema from '../standards/openrtb-2.6/Regs.json' with { type: 'json' };
import segmentSchema from '../standards/openrtb-2.6/Segment.json' with { type: 'json' };
import siteSchema from '../standards/openrtb-2.6/Site.json' with { type: 'json' };
import sourceSchema from '../standards/openrtb-2.6/Source.json' with { type: 'json' };
import supplyChainSchema from '../standards/openrtb-2.6/SupplyChain.json' with { type: 'json' };
import supplyChainNodeSchema from '../standards/openrtb-2.6/SupplyChainNode.json' with { type: 'json' };
import uidSchema from '../standards/openrtb-2.6/UID.json' with { type: 'json' };
import userSchema from '../standards/openrtb-2.6/User.json' with { type: 'json' };
import userAgentSchema from '../standards/openrtb-2.6/UserAgent.json' with { type: 'json' };
import videoSchema from '../standards/openrtb-2.6/Video.json' with { type: 'json' };
import type { JsonSchemaName } from './json.ts';

export type JsonSchemaObject = Record<string, unknown>;

/** The IAB's draft 2020-12 files as draft-07 for Ajv 6: only the `$schema` line differs (see above). */
const draft07 = ({ $schema: _, ...schema }: JsonSchemaObject): JsonSchemaObject => schema;

/** Every OpenRTB 2.6 object a BidRequest, Imp or Pmp refers to (by `$id`), for the validator to add. */
export const OPENRTB_REQUEST_SCHEMAS: readonly JsonSchemaObject[] = [
  appSchema, audioSchema, bannerSchema, bidRequestSchema, brandVersionSchema, channelSchema, contentSchema, doohSchema, dataSchema,
  dealSchema, deviceSchema, durFloorsSchema, eidSchema, formatSchema, geoSchema, impSchema, metricSchema, nativeSchema, networkSchema,
  pmpSchema, producerSchema, publisherSchema, qtySchema, refSettingsSchema, refreshSchema, regsSchema, segmentSchema, siteSchema,
  sourceSchema, supplyChainSchema, supplyChainNodeSchema, uidSchema, userSchema, userAgentSchema, videoSchema,
].map((s) => draft07(s as JsonSchemaObject));

const MONEY = '^\\d{1,9}(\\.\\d{1,4})?$';
const PERCENT = '^\\d{1,3}(\\.\\d{1,2})?$';
const hostname = { type: 'string', maxLength: 253, pattern: HOSTNAME.source };
const uniqueOf = (values: readonly (string | number)[], minItems = 0) => ({
  type: 'array',
  items: { enum: [...values] },
  uniqueItems: true,
  ...(minItems > 0 ? { minItems } : {}),
});
const dealCode = { type: 'string', minLength: 1, maxLength: DEAL_CODE_MAX, pattern: DEAL_CODE.source };

/**
 * A demand partner's integration configuration: how the exchange connects to it (endpoint,
 * OpenRTB version, compression, timeout, QPS cap), what it buys (media types, environments, sizes,
 * consent frameworks, countries), its default floor and revenue share (money as decimal text), its
 * sellers.json identity, and the deals it bids on. The fields and limits of the partner and deal
 * screens (resources/demand-partners.ts, resources/deals.ts).
 */
export const PARTNER_CONFIG_SCHEMA: JsonSchemaObject = {
  $id: 'https://backoffice.example/schemas/partner-config.json',
  title: 'Demand partner integration configuration',
  type: 'object',
  additionalProperties: false,
  required: ['name', 'type', 'endpoint_url', 'openrtb_version', 'timeout_ms', 'media_types', 'environments'],
  properties: {
    name: { type: 'string', minLength: 1, maxLength: 120 },
    type: { enum: [...PARTNER_TYPES] },
    status: { enum: [...PARTNER_STATUSES] },
    endpoint_url: { type: 'string', maxLength: 2000, pattern: '^https?://[^\\s/?#]+[^\\s]*$' },
    openrtb_version: { enum: [...OPENRTB_VERSIONS] },
    gzip: { type: 'boolean' },
    timeout_ms: { type: 'integer', minimum: MIN_TIMEOUT_MS, maximum: MAX_TIMEOUT_MS },
    qps_cap: { type: 'integer', minimum: 0, maximum: MAX_QPS_CAP },
    simulate_only: { type: 'boolean' },
    media_types: uniqueOf(FORMATS, 1),
    environments: uniqueOf(PARTNER_ENVIRONMENTS, 1),
    sizes: uniqueOf(SIZES),
    consent_frameworks: uniqueOf(CONSENT_FRAMEWORKS),
    geo_allow: uniqueOf(COUNTRIES),
    geo_deny: uniqueOf(COUNTRIES),
    default_floor: { type: 'string', pattern: MONEY },
    floor_currency: { enum: [...CURRENCIES] },
    revenue_share_pct: { type: 'string', pattern: PERCENT },
    seller_id_at_partner: { type: 'string', maxLength: 100 },
    partner_domain: hostname,
    certification_authority_id: { type: 'string', maxLength: 64 },
    deals: {
      type: 'array',
      items: {
        type: 'object',
        additionalProperties: false,
        required: ['id', 'type', 'bidfloor', 'bidfloorcur'],
        properties: {
          id: dealCode,
          name: { type: 'string', maxLength: 120 },
          type: { enum: [...DEAL_TYPES] },
          bidfloor: { type: 'string', pattern: MONEY },
          bidfloorcur: { enum: [...CURRENCIES] },
          at: { enum: [...AUCTION_TYPES] },
          wseat: { type: 'array', items: { type: 'string', minLength: 1, maxLength: 100 }, uniqueItems: true },
          wadomain: { type: 'array', items: hostname, uniqueItems: true },
        },
      },
    },
  },
};

/**
 * An ad unit's configuration: where it is (publisher, site or app, environment), what it shows
 * (media type, sizes), its floor (the floors screen's CPM, currency and hard or soft type), the
 * demand partners and deals it is offered to, refresh and lazy loading.
 */
export const AD_UNIT_CONFIG_SCHEMA: JsonSchemaObject = {
  $id: 'https://backoffice.example/schemas/ad-unit-config.json',
  title: 'Ad unit configuration',
  type: 'object',
  additionalProperties: false,
  required: ['name', 'site', 'environment', 'media_type', 'sizes'],
  properties: {
    name: { type: 'string', minLength: 1, maxLength: 120 },
    publisher: { type: 'string', maxLength: 200 },
    site: { type: 'string', minLength: 1, maxLength: 253 },
    environment: { enum: [...ENVIRONMENTS] },
    media_type: { enum: [...FORMATS] },
    sizes: uniqueOf(SIZES, 1),
    floor: {
      type: 'object',
      additionalProperties: false,
      required: ['cpm', 'currency'],
      properties: { cpm: { type: 'string', pattern: MONEY }, currency: { enum: [...CURRENCIES] }, type: { enum: [...FLOOR_TYPES] } },
    },
    demand_partners: {
      type: 'array',
      items: {
        type: 'object',
        additionalProperties: false,
        required: ['name'],
        properties: { name: { type: 'string', minLength: 1, maxLength: 120 }, enabled: { type: 'boolean' }, params: { type: 'object' } },
      },
    },
    deals: { type: 'array', items: dealCode, uniqueItems: true },
    refresh: {
      type: 'object',
      additionalProperties: false,
      required: ['enabled'],
      properties: { enabled: { type: 'boolean' }, interval_s: { type: 'integer', minimum: 30, maximum: 600 } },
    },
    lazy_load: { type: 'boolean' },
  },
};

/** Each schema's root: for OpenRTB the vendored object (the others are added by `$id`). */
export const JSON_SCHEMA_ROOTS: Record<JsonSchemaName, JsonSchemaObject> = {
  'openrtb-2.6/BidRequest': draft07(bidRequestSchema as JsonSchemaObject),
  'openrtb-2.6/Imp': draft07(impSchema as JsonSchemaObject),
  'openrtb-2.6/Pmp': draft07(pmpSchema as JsonSchemaObject),
  'backoffice/partner-config': PARTNER_CONFIG_SCHEMA,
  'backoffice/ad-unit-config': AD_UNIT_CONFIG_SCHEMA,
};

/** Open schemas (OpenRTB): a field they do not define is tolerated by the standard, so only warned about. */
export const OPEN_SCHEMAS: ReadonlySet<JsonSchemaName> = new Set(['openrtb-2.6/BidRequest', 'openrtb-2.6/Imp', 'openrtb-2.6/Pmp']);
