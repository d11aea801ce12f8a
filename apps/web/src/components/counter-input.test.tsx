import { fireEvent, render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import { setTestLanguage } from '../../test/i18n.ts';
import { CounterInput } from './counter-input.tsx';

describe('CounterInput', () => {
  it('starts at 0, cannot go below it, and steps up', async () => {
    const user = userEvent.setup();
    const onChange = vi.fn();
    render(<CounterInput aria-label="count" onChange={onChange} />);
    const input = screen.getByLabelText('count') as HTMLInputElement;
    expect(input.value).toBe('0');
    expect((screen.getByRole('button', { name: 'Decrease' }) as HTMLButtonElement).disabled).toBe(true);
    await user.click(screen.getByRole('button', { name: 'Increase' }));
    await user.click(screen.getByRole('button', { name: 'Increase' }));
    expect(input.value).toBe('2');
    expect(onChange).toHaveBeenLastCalledWith(2);
  });

  it('clamps typed values to 50', async () => {
    const user = userEvent.setup();
    const onChange = vi.fn();
    render(<CounterInput aria-label="count" onChange={onChange} />);
    const input = screen.getByLabelText('count') as HTMLInputElement;
    await user.clear(input);
    await user.type(input, '99');
    fireEvent.blur(input);
    expect(onChange).toHaveBeenLastCalledWith(50);
    expect(input.value).toBe('50');
    expect((screen.getByRole('button', { name: 'Increase' }) as HTMLButtonElement).disabled).toBe(true);
  });

  it('allows negatives only when told, within min', async () => {
    const user = userEvent.setup();
    const onChange = vi.fn();
    const { unmount } = render(<CounterInput aria-label="count" min={-2} onChange={onChange} />);
    expect((screen.getByRole('button', { name: 'Decrease' }) as HTMLButtonElement).disabled).toBe(true);
    unmount();
    render(<CounterInput aria-label="count" min={-2} allowNegative onChange={onChange} />);
    await user.click(screen.getByRole('button', { name: 'Decrease' }));
    await user.click(screen.getByRole('button', { name: 'Decrease' }));
    expect(onChange).toHaveBeenLastCalledWith(-2);
    expect((screen.getByRole('button', { name: 'Decrease' }) as HTMLButtonElement).disabled).toBe(true);
  });

  it('clamps a controlled value and labels the buttons in Spanish', async () => {
    await setTestLanguage('es');
    render(<CounterInput aria-label="count" value={80} max={10} />);
    expect((screen.getByLabelText('count') as HTMLInputElement).value).toBe('10');
    expect(screen.getByRole('button', { name: 'Aumentar' })).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Reducir' })).toBeTruthy();
  });
});
