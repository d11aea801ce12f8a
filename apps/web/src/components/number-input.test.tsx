import { fireEvent, render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { useState } from 'react';
import { describe, expect, it, vi } from 'vitest';
import { NumberInput } from './number-input.tsx';

function Controlled({
  onChange,
  allowNegative,
}: {
  onChange: (v: string | null) => void;
  allowNegative?: boolean;
}) {
  const [value, setValue] = useState<string | null>(null);
  return (
    <NumberInput
      aria-label="amount"
      allowNegative={allowNegative}
      value={value}
      onChange={(v) => {
        setValue(v);
        onChange(v);
      }}
    />
  );
}

describe('NumberInput', () => {
  it('takes up to 3 decimals and ignores a 4th', async () => {
    const user = userEvent.setup();
    const onChange = vi.fn();
    render(<Controlled onChange={onChange} />);
    const input = screen.getByLabelText('amount') as HTMLInputElement;
    await user.type(input, '12.3456');
    expect(input.value).toBe('12.345');
    expect(onChange).toHaveBeenLastCalledWith('12.345');
  });

  it('uses the dot: a typed comma becomes a dot, letters are ignored', async () => {
    const user = userEvent.setup();
    const onChange = vi.fn();
    render(<Controlled onChange={onChange} />);
    const input = screen.getByLabelText('amount') as HTMLInputElement;
    await user.type(input, '1a,5');
    expect(input.value).toBe('1.5');
    expect(onChange).toHaveBeenLastCalledWith('1.5');
  });

  it('refuses negatives when not allowed', async () => {
    const user = userEvent.setup();
    const onChange = vi.fn();
    render(<Controlled onChange={onChange} allowNegative={false} />);
    const input = screen.getByLabelText('amount') as HTMLInputElement;
    await user.type(input, '-3');
    expect(input.value).toBe('3');
  });

  it('normalises on blur and marks a lone sign as invalid', async () => {
    const user = userEvent.setup();
    const onChange = vi.fn();
    render(<Controlled onChange={onChange} />);
    const input = screen.getByLabelText('amount') as HTMLInputElement;
    await user.type(input, '007.');
    expect(onChange).toHaveBeenLastCalledWith('7');
    fireEvent.blur(input);
    expect(input.value).toBe('7');
    await user.clear(input);
    await user.type(input, '-');
    fireEvent.blur(input);
    expect(input.getAttribute('aria-invalid')).toBe('true');
    expect(input.getAttribute('title')).toBe('Enter a number with up to 3 decimals, using a dot');
  });

  it('shows a value set from outside', () => {
    const { rerender } = render(<NumberInput aria-label="amount" value="1.5" />);
    expect((screen.getByLabelText('amount') as HTMLInputElement).value).toBe('1.5');
    rerender(<NumberInput aria-label="amount" value="2.25" />);
    expect((screen.getByLabelText('amount') as HTMLInputElement).value).toBe('2.25');
    rerender(<NumberInput aria-label="amount" value={null} />);
    expect((screen.getByLabelText('amount') as HTMLInputElement).value).toBe('');
  });
});
