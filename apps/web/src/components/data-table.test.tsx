import { render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import {
  DataTable,
  EmptyList,
  sortChoices,
  tableParams,
  type DataColumn,
  type TableView,
} from './data-table.tsx';

interface Row {
  id: number;
  name: string;
  balance: string;
}
const ROWS: Row[] = [
  { id: 1, name: 'Cierzo Installs', balance: '2000.00' },
  { id: 2, name: 'Levante Apps', balance: '150.00' },
];
const COLUMNS: DataColumn<Row>[] = [
  { key: 'name', title: 'Advertiser', sort: 'name', render: (r) => r.name },
  { key: 'balance', title: 'Balance', align: 'right', sort: 'balance', render: (r) => r.balance },
];
const VIEW: TableView = { sort: 'name', page: 1, pageSize: 25 };

function List({
  rows = ROWS,
  onView = () => undefined,
}: {
  rows?: Row[];
  onView?: (p: Partial<TableView>) => void;
}) {
  return (
    <DataTable<Row, number>
      rows={rows}
      total={rows.length}
      loading={false}
      rowKey={(r) => r.id}
      columns={COLUMNS}
      view={VIEW}
      onView={onView}
      defaultSort="name"
      pageSizes={[10, 25]}
      sortOptions={sortChoices(['name', 'balance'] as const, (f) =>
        f === 'name' ? 'Advertiser' : 'Balance',
      )}
      sortLabel="Sort by"
      regionLabel="Advertisers"
      countText={(n) => `${n} advertisers`}
      card={{
        title: (r, className) => <span className={className}>{r.name}</span>,
        fields: (r) => [{ label: 'Balance', value: r.balance }],
      }}
      empty={<EmptyList description="No data found" testId="list-empty" />}
      testId="advertiser"
    />
  );
}

afterEach(() => {
  window.innerWidth = 1024;
});

describe('tableParams', () => {
  it('writes sort, page and page_size, dropping the defaults and page 1', () => {
    const defaults = { sort: '-id', pageSize: 25 };
    expect(tableParams({ sort: 'amount', page: 1 }, defaults)).toEqual({ sort: 'amount', page: null });
    expect(tableParams({ sort: '-id', page: 1 }, defaults)).toEqual({ sort: null, page: null });
    expect(tableParams({ page: 3 }, defaults)).toEqual({ page: '3' });
    expect(tableParams({ page: 1, pageSize: 100 }, defaults)).toEqual({ page: null, page_size: '100' });
    expect(tableParams({ page: 1, pageSize: 25 }, defaults)).toEqual({ page: null, page_size: null });
  });
});

describe('DataTable', () => {
  it('is a table from 768 px: the list says how many with its own words, and a header sorts through the view', async () => {
    window.innerWidth = 1440;
    const onView = vi.fn();
    render(<List onView={onView} />);
    const table = screen.getByTestId('advertiser-table');
    expect(within(table).getByTestId('advertiser-row-2').textContent).toContain('Levante Apps');
    expect(screen.getByText('2 advertisers')).toBeTruthy();
    await userEvent.click(within(table).getByText('Balance'));
    expect(onView).toHaveBeenLastCalledWith({ sort: 'balance', page: 1 });
  });

  it('is a card per row on a phone, with the sort menu, and the shared empty state without rows', () => {
    window.innerWidth = 375;
    const { unmount } = render(<List />);
    const cards = screen.getByTestId('advertiser-cards');
    expect(within(cards).getByTestId('advertiser-row-1').textContent).toContain('Cierzo Installs');
    expect(within(cards).getByLabelText('Sort by')).toBeTruthy();
    expect(screen.getByText('2 advertisers')).toBeTruthy();
    unmount();
    render(<List rows={[]} />);
    expect(screen.getByTestId('list-empty').textContent).toContain('No data found');
  });
});
