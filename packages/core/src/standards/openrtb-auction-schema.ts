/**
 * The IAB Tech Lab's OpenRTB 2.6 JSON Schemas (openrtb-2.6/, README there) as a check of the
 * BidRequest and BidResponse objects the SSP logs hold (core's unit test, the API's integration
 * test). Ajv is a development dependency: nothing the apps ship imports this file.
 *
 * The schemas are open (OpenRTB 2.6 section 2.6: receivers tolerate unknown fields), so a misspelt
 * field would pass them; `openRtbProblems` also walks the object along the schemas and reports any
 * field they do not define, outside the `ext` objects (which are for extensions).
 */
import Ajv from 'ajv';
import appSchema from './openrtb-2.6/App.json' with { type: 'json' };
import audioSchema from './openrtb-2.6/Audio.json' with { type: 'json' };
import bannerSchema from './openrtb-2.6/Banner.json' with { type: 'json' };
import bidSchema from './openrtb-2.6/Bid.json' with { type: 'json' };
import bidRequestSchema from './openrtb-2.6/BidRequest.json' with { type: 'json' };
import bidResponseSchema from './openrtb-2.6/BidResponse.json' with { type: 'json' };
import brandVersionSchema from './openrtb-2.6/BrandVersion.json' with { type: 'json' };
import channelSchema from './openrtb-2.6/Channel.json' with { type: 'json' };
import contentSchema from './openrtb-2.6/Content.json' with { type: 'json' };
import doohSchema from './openrtb-2.6/DOOH.json' with { type: 'json' };
import dataSchema from './openrtb-2.6/Data.json' with { type: 'json' };
import dealSchema from './openrtb-2.6/Deal.json' with { type: 'json' };
import deviceSchema from './openrtb-2.6/Device.json' with { type: 'json' };
import durFloorsSchema from './openrtb-2.6/DurFloors.json' with { type: 'json' };
import eidSchema from './openrtb-2.6/EID.json' with { type: 'json' };
import formatSchema from './openrtb-2.6/Format.json' with { type: 'json' };
import geoSchema from './openrtb-2.6/Geo.json' with { type: 'json' };
import impSchema from './openrtb-2.6/Imp.json' with { type: 'json' };
import metricSchema from './openrtb-2.6/Metric.json' with { type: 'json' };
import nativeSchema from './openrtb-2.6/Native.json' with { type: 'json' };
import networkSchema from './openrtb-2.6/Network.json' with { type: 'json' };
import pmpSchema from './openrtb-2.6/Pmp.json' with { type: 'json' };
import producerSchema from './openrtb-2.6/Producer.json' with { type: 'json' };
import publisherSchema from './openrtb-2.6/Publisher.json' with { type: 'json' };
import qtySchema from './openrtb-2.6/Qty.json' with { type: 'json' };
import refSettingsSchema from './openrtb-2.6/RefSettings.json' with { type: 'json' };
import refreshSchema from './openrtb-2.6/Refresh.json' with { type: 'json' };
import regsSchema from './openrtb-2.6/Regs.json' with { type: 'json' };
import seatBidSchema from './openrtb-2.6/SeatBid.json' with { type: 'json' };
import segmentSchema from './openrtb-2.6/Segment.json' with { type: 'json' };
import siteSchema from './openrtb-2.6/Site.json' with { type: 'json' };
import sourceSchema from './openrtb-2.6/Source.json' with { type: 'json' };
import supplyChainSchema from './openrtb-2.6/SupplyChain.json' with { type: 'json' };
import supplyChainNodeSchema from './openrtb-2.6/SupplyChainNode.json' with { type: 'json' };
import uidSchema from './openrtb-2.6/UID.json' with { type: 'json' };
import userSchema from './openrtb-2.6/User.json' with { type: 'json' };
import userAgentSchema from './openrtb-2.6/UserAgent.json' with { type: 'json' };
import videoSchema from './openrtb-2.6/Video.json' with { type: 'json' };

type Schema = { $id?: string; $ref?: string; type?: string; properties?: Record<string, Schema>; items?: Schema; additionalProperties?: boolean };

const ALL = [appSchema, audioSchema, bannerSchema, bidSchema, bidRequestSchema, bidResponseSchema, brandVersionSchema, channelSchema, contentSchema, doohSchema, dataSchema, dealSchema, deviceSchema, durFloorsSchema, eidSchema, formatSchema, geoSchema, impSchema, metricSchema, nativeSchema, networkSchema, pmpSchema, producerSchema, publisherSchema, qtySchema, refSettingsSchema, refreshSchema, regsSchema, seatBidSchema, segmentSchema, siteSchema, sourceSchema, supplyChainSchema, supplyChainNodeSchema, uidSchema, userSchema, userAgentSchema, videoSchema] as Schema[];
/** The IAB's draft 2020-12 files read by Ajv 6 (draft-07): the keywords they use mean the same there (README). */
const draft07 = ({ $schema: _, ...schema }: Record<string, unknown>) => schema;
const ajv = new Ajv({ allErrors: true });
for (const s of ALL) if (s.$id !== bidRequestSchema.$id && s.$id !== bidResponseSchema.$id) ajv.addSchema(draft07(s as Record<string, unknown>));
const validators = { request: ajv.compile(draft07(bidRequestSchema)), response: ajv.compile(draft07(bidResponseSchema)) };
const byFile = new Map(ALL.map((s) => [String(s.$id).split('/').pop()!, s]));

function unknownFields(value: unknown, schema: Schema, path: string, out: string[]): void {
  const s = schema.$ref ? byFile.get(schema.$ref) : schema;
  if (!s || value === null || typeof value !== 'object') return;
  if (Array.isArray(value)) {
    if (s.items) value.forEach((v, i) => unknownFields(v, s.items!, `${path}[${i}]`, out));
    return;
  }
  if (s.additionalProperties === true || !s.properties) return;
  for (const [k, v] of Object.entries(value)) {
    const field = s.properties[k];
    if (!field) out.push(`unknown field ${path}.${k}`);
    else unknownFields(v, field, `${path}.${k}`, out);
  }
}

/** What is wrong with a BidRequest or a BidResponse: the schema's errors (`path message`) and any field the 2.6 objects do not define. */
export function openRtbProblems(kind: 'request' | 'response', value: unknown): string[] {
  const validate = validators[kind];
  const errors = validate(value) ? [] : (validate.errors ?? []).map((e) => `${e.dataPath} ${e.message ?? ''}`);
  unknownFields(value, (kind === 'request' ? bidRequestSchema : bidResponseSchema) as Schema, kind, errors);
  return errors;
}
