import { companySchema } from '@backoffice/core/resources/companies';
import { isValidIban, isValidTaxId } from '@backoffice/core/tax-ids';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { generateCompanies } from '../src/db/generated-companies.ts';
import { dbOf, rows } from './auth-support.ts';
import { body, createTestApp, signIn, type TestApp } from './helpers.ts';

interface Row {
  id: number;
  legal_name: string;
  trade_name: string | null;
  country: string;
  tax_id: string;
  address: string;
  city: string;
  postal_code: string;
  billing_email: string;
  iban: string | null;
  currency: string;
}

describe('generated companies (npm run data:generate -- --companies N)', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(async () => t?.close());

  const count = async () => (await rows<{ n: number }>(dbOf(t.app), sql`select count(*)::int as n from companies`))[0]!.n;

  it('adds companies until the table holds N, each valid as the form and the API check it', async () => {
    const before = await count();
    const max = (await rows<{ max: number }>(dbOf(t.app), sql`select coalesce(max(id), 0)::int as max from companies`))[0]!.max;
    const progress: number[] = [];
    const result = await generateCompanies(t.app.ctx.database, { target: before + 50, batchSize: 20 }, (p) => progress.push(p.inserted));
    expect(result).toMatchObject({ existing: before, inserted: 50, total: before + 50 });
    expect(progress).toEqual([0, 20, 40, 50]);
    expect(await count()).toBe(before + 50);

    const added = await rows<Row>(
      dbOf(t.app),
      sql`select id, legal_name, trade_name, country, tax_id, address, city, postal_code, billing_email, iban, currency from companies where id > ${max} order by id`,
    );
    expect(added).toHaveLength(50);
    for (const c of added) {
      expect(isValidTaxId(c.country, c.tax_id), `${c.country} ${c.tax_id}`).toBe(true);
      if (c.iban !== null) expect(isValidIban(c.iban), c.iban).toBe(true);
      const { id: _id, ...fields } = c;
      const parsed = companySchema.safeParse(fields);
      expect(parsed.success, `${c.legal_name}: ${JSON.stringify(parsed.error?.issues)}`).toBe(true);
      // Stored as the schema normalises it.
      expect(parsed.data).toMatchObject({ tax_id: c.tax_id, iban: c.iban });
    }
    expect(new Set(added.map((c) => c.country)).size).toBeGreaterThan(3);

    // The list API counts them.
    const { headers } = await signIn(t.app, 'admin@adtech.example');
    const list = await t.app.inject({ url: '/v1/companies?page_size=1', headers });
    expect(body<{ total: number }>(list).data.total).toBe(before + 50);
  });

  it('adds none when the table already holds N, and continues from there when N grows', async () => {
    const now = await count();
    expect(await generateCompanies(t.app.ctx.database, { target: now })).toMatchObject({
      inserted: 0,
      total: now,
    });
    expect(await generateCompanies(t.app.ctx.database, { target: 10 })).toMatchObject({
      inserted: 0,
      total: now,
    });
    expect(await generateCompanies(t.app.ctx.database, { target: now + 7 })).toMatchObject({
      existing: now,
      inserted: 7,
      total: now + 7,
    });
    expect(await count()).toBe(now + 7);
  });

  it('skips a generated tax id that is already there and uses the next one', async () => {
    // One company fewer: the next number's company is already in the table (same tax id).
    await dbOf(t.app).execute(sql`delete from companies where id = (select min(id) from companies where created_by is null and id not in (select company_id from agencies))`);
    const now = await count();
    const result = await generateCompanies(t.app.ctx.database, { target: now + 1 });
    expect(result).toMatchObject({ inserted: 1, total: now + 1 });
    expect(await count()).toBe(now + 1);
  });
});
