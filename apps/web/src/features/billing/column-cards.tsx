/**
 * A small table as a card per row on a phone: each column's title and cell, the first column as
 * the card's heading. For the netting and reconciliation tables, whose last columns (the figures,
 * the Net and Undo buttons) would otherwise sit beyond a sideways scroll.
 */
import { Card } from 'antd';
import type { ReactNode } from 'react';
import '../../components/data-views.css';

export interface CardColumn<T> {
  key: string;
  title: ReactNode;
  render: (value: unknown, row: T, index: number) => ReactNode;
  /** The table's alignment (ignored on a card). */
  align?: 'left' | 'right' | 'center';
}

export function ColumnCards<T>({
  columns,
  rows,
  rowKey,
  empty,
  testId,
}: {
  columns: CardColumn<T>[];
  rows: T[];
  rowKey: (row: T) => string;
  empty: ReactNode;
  testId?: string;
}) {
  const [head, ...rest] = columns;
  if (!head) return null;
  return (
    <div className="bo-data-cards" data-testid={testId}>
      {rows.length === 0 ? <p>{empty}</p> : null}
      {rows.map((row, i) => (
        <Card key={rowKey(row)} size="small" className="bo-data-card">
          <div className="bo-data-card__head">
            <strong className="bo-data-card__title">{head.render(undefined, row, i)}</strong>
          </div>
          <dl className="bo-data-card__grid">
            {rest.map((c) => (
              <div key={c.key}>
                <dt>{c.title}</dt>
                <dd>{c.render(undefined, row, i)}</dd>
              </div>
            ))}
          </dl>
        </Card>
      ))}
    </div>
  );
}
