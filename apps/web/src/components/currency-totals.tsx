/**
 * The totals of what a list filters, as the API adds them up (never added here): a card per
 * currency (a count and the figures in that currency) and any other card (e.g. the same in EUR),
 * then `children` (a warning), then optionally how many rows are in each state, each a toggle
 * button that filters by it.
 */
import { Button, theme as antdTheme } from 'antd';
import type { ReactNode } from 'react';
import { MoneyCell } from './money-cell.tsx';
import './data-views.css';

export interface TotalsFigure {
  label: string;
  amount: string;
  currency: string;
  testId?: string;
}

export interface TotalsCard {
  /** The currency (or another unique key); the card's test id is `<testId>-total-<key>`. */
  key: string;
  title: ReactNode;
  /** At the right of the title: a count, a link. */
  aside?: ReactNode;
  figures: TotalsFigure[];
}

export interface StateCounts<S extends string> {
  /** The group's accessible name. */
  label: string;
  states: readonly S[];
  count: (state: S) => number;
  /** A state's name. */
  text: (state: S) => string;
  active: readonly S[];
  onToggle: (state: S) => void;
}

export interface CurrencyTotalsProps<S extends string> {
  /** The section's accessible name. */
  label: string;
  cards: TotalsCard[];
  states?: StateCounts<S>;
  /** Between the cards and the states. */
  children?: ReactNode;
  /** Prefix of the test ids: `<testId>-totals`, `<testId>-total-<key>`, `<testId>-state-count-<state>`. */
  testId: string;
}

export function CurrencyTotals<S extends string>({
  label,
  cards,
  states,
  children,
  testId,
}: CurrencyTotalsProps<S>) {
  const { token } = antdTheme.useToken();
  const secondary = { color: token.colorTextSecondary };
  return (
    <section className="bo-totals" aria-label={label} data-testid={`${testId}-totals`}>
      <div className="bo-totals__row">
        {cards.map((c) => (
          <div
            key={c.key}
            className="bo-total"
            style={{ borderColor: token.colorBorderSecondary, background: token.colorBgContainer }}
            data-testid={`${testId}-total-${c.key}`}
          >
            <div className="bo-total__head">
              <strong>{c.title}</strong>
              {typeof c.aside === 'string' ? <span style={secondary}>{c.aside}</span> : c.aside}
            </div>
            {c.figures.map((f) => (
              <div key={f.label} className="bo-total__figure">
                <span style={secondary}>{f.label}</span>
                <strong data-testid={f.testId}>
                  <MoneyCell amount={f.amount} currency={f.currency} />
                </strong>
              </div>
            ))}
          </div>
        ))}
      </div>
      {children}
      {states ? (
        <div className="bo-totals__states" role="group" aria-label={states.label}>
          {states.states.map((s) => (
            <Button
              key={s}
              size="small"
              type={states.active.includes(s) ? 'primary' : 'default'}
              aria-pressed={states.active.includes(s)}
              onClick={() => states.onToggle(s)}
              data-testid={`${testId}-state-count-${s}`}
            >
              {states.text(s)}: {states.count(s)}
            </Button>
          ))}
        </div>
      ) : null}
    </section>
  );
}
