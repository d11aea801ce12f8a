import { render, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { useState } from 'react';
import { describe, expect, it, vi } from 'vitest';
import { MultiSelect } from './multi-select.tsx';

const OPTIONS = [
  { id: 1, value: 'Google' },
  { id: 2, value: 'Magnite' },
  { id: 3, value: 'PubMatic' },
];

function Harness({ onChange, maxCount }: { onChange: (ids: number[]) => void; maxCount?: number }) {
  const [value, setValue] = useState<number[]>([]);
  return (
    <MultiSelect<number>
      aria-label="networks"
      options={OPTIONS}
      maxCount={maxCount}
      value={value}
      onChange={(ids) => {
        setValue(ids);
        onChange(ids);
      }}
    />
  );
}

const option = (label: string) =>
  [...document.querySelectorAll<HTMLElement>('.ant-select-item-option')].find(
    (el) => el.textContent === label,
  )!;

describe('MultiSelect', () => {
  it('reports the chosen ids and stops at the maximum count', async () => {
    const user = userEvent.setup();
    const onChange = vi.fn();
    render(<Harness onChange={onChange} maxCount={2} />);
    await user.click(screen.getByRole('combobox'));
    await waitFor(() => expect(option('Google')).toBeTruthy());
    await user.click(option('Google'));
    await user.click(option('PubMatic'));
    expect(onChange).toHaveBeenLastCalledWith([1, 3]);
    expect(document.querySelector('.ant-select-suffix, .ant-select-arrow')?.textContent).toBe('2/2');
    expect(option('Magnite').className).toMatch(/disabled/);
    await user.click(option('Magnite'));
    expect(onChange).toHaveBeenLastCalledWith([1, 3]);
    expect(onChange).toHaveBeenCalledTimes(2);
  });

  it('filters options by label and says how many items are allowed', async () => {
    const user = userEvent.setup();
    render(<Harness onChange={() => undefined} maxCount={2} />);
    expect(document.body.textContent).toContain('Up to 2 items');
    await user.type(screen.getByRole('combobox'), 'mag');
    await waitFor(() => expect(document.querySelectorAll('.ant-select-item-option')).toHaveLength(1));
    expect(option('Magnite')).toBeTruthy();
  });
});
