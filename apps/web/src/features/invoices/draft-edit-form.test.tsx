import type { InvoiceListItem } from '@backoffice/core/invoices';
import { fireEvent, render, screen, waitFor } from '@testing-library/react';
import { App } from 'antd';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { initialSession, useSession } from '../../lib/session-store.ts';
import { DraftEditForm } from './draft-edit-form.tsx';

const json = (body: unknown, status = 200) =>
  new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });

const draft: InvoiceListItem = {
  id: 7,
  team: 'ssp',
  kind: 'invoice',
  state: 'draft',
  number: null,
  id_user: 3,
  name: 'Nimbus Exchange',
  account_type: 'SSP',
  payment_terms: 'net45',
  blocked: false,
  blocked_reason: null,
  date_start: '2026-10-01',
  date_end: '2026-10-31',
  impressions: '1000000',
  revenue: '1000.00',
  fraud_percentage: null,
  fraud_revenue: null,
  spoofing_percentage: null,
  spoofing_revenue: null,
  revenue_fraud: '0.00',
  new_revenue_net: '1000.00',
  comments: null,
  apply_deductions: true,
  company_name: 'Rheinland AdTech GmbH',
  country: 'ES',
  currency: 'EUR',
  months: ['2026-10'],
  tax_treatment: 'domestic',
  base: '1000.00',
  vat_amount: '210.00',
  total: '1210.00',
  paid: '0.00',
  credited: '0.00',
  outstanding: '0.00',
  issue_date: null,
  due_date: null,
  overdue: false,
  missing: [],
  corrects: null,
  version: 3,
};

let bodies: unknown[];
beforeEach(() => {
  useSession.setState({ ...initialSession(), locale: 'en' });
  bodies = [];
});
afterEach(() => vi.unstubAllGlobals());

function renderForm(onSaved = vi.fn()) {
  render(
    <App>
      <DraftEditForm draft={draft} canWrite onSaved={onSaved} onDirtyChange={() => {}} />
    </App>,
  );
  return onSaved;
}

describe('draft deductions form', () => {
  it('refuses 0 next to the field, derives the amount of 10 % and saves only what changed with the version', async () => {
    vi.stubGlobal(
      'fetch',
      vi.fn(async (_url: string, init: RequestInit) => {
        bodies.push(JSON.parse(String(init.body)));
        return json({
          status: 'success',
          message: 'invoice.saved',
          data: { ...draft, fraud_percentage: '10.00', fraud_revenue: '100.00', version: 4 },
        });
      }),
    );
    const onSaved = renderForm();
    const fraud = screen.getByTestId('invoice-edit-fraud-value');
    fireEvent.change(fraud, { target: { value: '0' } });
    expect(screen.getByTestId('invoice-edit-fraud-error').textContent).toBe('has to be upper than 0');
    expect((screen.getByTestId('invoice-edit-save') as HTMLButtonElement).disabled).toBe(true);
    fireEvent.change(fraud, { target: { value: '10' } });
    expect(screen.getByTestId('invoice-edit-fraud-derived').textContent).toContain('€100.00');
    expect(screen.getByTestId('invoice-edit-net').textContent).toBe('€900.00');
    expect(screen.getByTestId('invoice-edit-total').textContent).toBe('€1,089.00');
    fireEvent.click(screen.getByTestId('invoice-edit-save'));
    await waitFor(() => expect(onSaved).toHaveBeenCalled());
    expect(bodies).toEqual([{ version: 3, fraud_percentage: '10', fraud_revenue: null }]);
  });

  it('keeps what was typed when someone else changed the draft (409) and shows the current figures', async () => {
    const current = {
      ...draft,
      spoofing_percentage: '5.00',
      spoofing_revenue: '50.00',
      new_revenue_net: '950.00',
      version: 5,
    };
    vi.stubGlobal(
      'fetch',
      vi.fn(async (_url: string, init: RequestInit) => {
        bodies.push(JSON.parse(String(init.body)));
        return json({ status: 'error', message: 'invoice.changed', data: current }, 409);
      }),
    );
    const onSaved = renderForm();
    fireEvent.change(screen.getByTestId('invoice-edit-fraud-value'), { target: { value: '12.5' } });
    fireEvent.click(screen.getByTestId('invoice-edit-save'));
    await waitFor(() => expect(screen.getByTestId('invoice-edit-conflict')).toBeTruthy());
    expect(screen.getByTestId('invoice-edit-conflict').textContent).toContain('spoofing 5.00 %');
    expect(screen.getByTestId('invoice-edit-conflict').textContent).toContain('€950.00');
    expect((screen.getByTestId('invoice-edit-fraud-value') as HTMLInputElement).value).toBe('12.5');
    expect(onSaved).toHaveBeenCalledWith(current);
  });
});
