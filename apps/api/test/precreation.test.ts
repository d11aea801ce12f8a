/**
 * Precreation drafts: the workflow (draft -> in review -> created, or rejected), approval that needs
 * the checklist and what the entity requires, and creates the publisher or demand partner once
 * under concurrent approvals (exactly one entity, every answer naming it), a draft that takes no
 * edits once created, and the new publisher in /sellers.json.
 */
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { demandPartners, publishers } from '../src/db/schema-reports.ts';
import { dbOf } from './firewall-fixtures.ts';
import { body, createTestApp, signIn, type TestApp } from './helpers.ts';

interface Draft {
  id: number;
  name: string;
  state: string;
  version: number;
  created_entity_id: number | null;
}
interface Outcome {
  id: number;
  state: string;
  version: number;
  created_entity_id: number | null;
  already?: boolean;
}

describe('precreation drafts', () => {
  let t: TestApp;
  let head: Record<string, string>;
  beforeAll(async () => {
    t = await createTestApp();
    head = (await signIn(t.app, 'admin@adtech.example')).headers;
  });
  afterAll(async () => t?.close());

  const publisherDraft = (over: Record<string, unknown> = {}) => ({
    name: 'El Faro de Vigo Digital',
    side: 'performance',
    target: 'publisher',
    company_id: null,
    contact_email: 'ads@farodevigo.example',
    seller_id: 'perf-faro-01',
    seller_domain: 'farodevigo.example',
    revenue_share_pct: '70',
    partner_type: 'DSP',
    endpoint_url: null,
    qps_cap: 0,
    notes: null,
    contract_signed: true,
    billing_info: true,
    ads_txt_verified: true,
    test_traffic: true,
    ...over,
  });
  const create = async (payload: object) => {
    const res = await t.app.inject({ method: 'POST', url: '/v1/precreation', payload, headers: head });
    expect(res.statusCode).toBe(201);
    return body<Draft>(res).data;
  };
  const action = (id: number, verb: string, payload: object) => t.app.inject({ method: 'POST', url: `/v1/precreation/${id}/actions/${verb}`, payload, headers: head });

  it('approves a draft once under concurrent approvals: exactly one publisher, every answer naming it', async () => {
    const draft = await create(publisherDraft());
    expect(draft.state).toBe('draft');
    // Not before review.
    expect(body((await action(draft.id, 'approve', { version: draft.version }))).message).toBe('precreation.wrong_state');
    const submitted = body<Outcome>(await action(draft.id, 'submit', { version: draft.version })).data;
    expect(submitted.state).toBe('in_review');

    const answers = await Promise.all(Array.from({ length: 5 }, () => action(draft.id, 'approve', { version: submitted.version })));
    expect(answers.map((r) => r.statusCode)).toEqual([200, 200, 200, 200, 200]);
    const outcomes = answers.map((r) => body<Outcome>(r).data);
    const entity = outcomes[0]!.created_entity_id!;
    expect(outcomes.every((o) => o.state === 'created' && o.created_entity_id === entity)).toBe(true);
    expect(outcomes.filter((o) => !o.already)).toHaveLength(1);
    const made = await dbOf(t.app).select().from(publishers).where(eq(publishers.sellerId, 'perf-faro-01'));
    expect(made).toHaveLength(1);
    expect(made[0]).toMatchObject({ id: entity, name: 'El Faro de Vigo Digital', side: 'performance', sellerDomain: 'farodevigo.example', status: 'live' });

    // A created draft takes no edits; the new publisher is in sellers.json.
    const row = body<Draft>(await t.app.inject({ url: `/v1/precreation/${draft.id}`, headers: head })).data;
    const edit = await t.app.inject({ method: 'PUT', url: `/v1/precreation/${draft.id}`, headers: head, payload: { ...publisherDraft({ name: 'Changed' }), version: row.version } });
    expect(edit.statusCode).toBe(409);
    expect(body(edit).message).toBe('precreation.locked');
    const sellers = (await t.app.inject({ url: '/sellers.json' })).json() as { sellers: { seller_id: string; domain?: string }[] };
    expect(sellers.sellers).toContainEqual(expect.objectContaining({ seller_id: 'perf-faro-01', domain: 'farodevigo.example' }));

    const history = body<{ action: string }[]>(await t.app.inject({ url: `/v1/precreation/${draft.id}/history`, headers: head })).data.map((h) => h.action);
    expect(history).toEqual(['precreation.approve', 'precreation.submit', 'precreation.create']);
  });

  it('refuses approval until the checklist is complete and the entity has what it needs', async () => {
    const draft = await create(publisherDraft({ name: 'Sin Dominio', seller_id: 'perf-x-02', seller_domain: null, test_traffic: false }));
    const submitted = body<Outcome>(await action(draft.id, 'submit', { version: draft.version })).data;
    const res = await action(draft.id, 'approve', { version: submitted.version });
    expect(res.statusCode).toBe(400);
    expect(body(res).errors).toEqual({ test_traffic: 'precreation.check_missing', seller_domain: 'precreation.needed_to_create' });
    // A stale version is a conflict, not an approval.
    expect((await action(draft.id, 'approve', { version: draft.version })).statusCode).toBe(409);
  });

  it('creates a demand partner from an SSP draft, and a rejected draft stays rejected', async () => {
    const draft = await create(publisherDraft({ name: 'Faro Bidder', side: 'ssp', target: 'demand_partner', seller_id: null, seller_domain: null, endpoint_url: 'HTTPS://Bid.FaroBidder.example/rtb/', qps_cap: 8000 }));
    const submitted = body<Outcome>(await action(draft.id, 'submit', { version: draft.version })).data;
    const approved = body<Outcome>(await action(draft.id, 'approve', { version: submitted.version })).data;
    const [dp] = await dbOf(t.app).select().from(demandPartners).where(eq(demandPartners.id, approved.created_entity_id!));
    expect(dp).toMatchObject({ name: 'Faro Bidder', side: 'ssp', status: 'testing', qpsCap: 8000, endpointUrl: 'https://bid.farobidder.example/rtb' });

    const other = await create(publisherDraft({ name: 'No Thanks', seller_id: 'perf-no-03' }));
    const rejected = await action(other.id, 'reject', { version: other.version, reason: 'Traffic quality below our bar' });
    expect(body<Outcome>(rejected).data.state).toBe('rejected');
    expect(body(await action(other.id, 'submit', { version: body<Outcome>(rejected).data.version })).message).toBe('precreation.wrong_state');
    const row = body<{ reject_reason: string }>(await t.app.inject({ url: `/v1/precreation/${other.id}`, headers: head })).data;
    expect(row.reject_reason).toBe('Traffic quality below our bar');
  });
});
