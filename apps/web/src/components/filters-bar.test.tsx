import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import { FiltersBar } from './filters-bar.tsx';

describe('FiltersBar', () => {
  it('applies the search, trimmed, on Enter', async () => {
    const onSearch = vi.fn();
    render(
      <FiltersBar
        search=""
        onSearch={onSearch}
        searchLabel="Advertiser or company"
        count={0}
        filtered={false}
        onClear={() => undefined}
        testId="list"
      />,
    );
    await userEvent.type(screen.getByLabelText('Advertiser or company'), '  Cierzo {Enter}');
    expect(onSearch).toHaveBeenCalledWith('Cierzo');
    expect(screen.queryByTestId('list-clear-filters')).toBeNull();
  });

  it('has no search box for a list the API does not search: only its filters and "Clear filters"', async () => {
    const onClear = vi.fn();
    render(
      <FiltersBar count={1} filtered onClear={onClear} testId="list">
        <input aria-label="Period" />
      </FiltersBar>,
    );
    expect(screen.queryByTestId('list-search')).toBeNull();
    expect(screen.getByTestId('list-filters').querySelectorAll('input')).toHaveLength(1);
    await userEvent.click(screen.getByTestId('list-clear-filters'));
    expect(onClear).toHaveBeenCalledOnce();
  });
});
