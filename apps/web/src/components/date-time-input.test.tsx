import { render, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { DateTimeInput } from './date-time-input.tsx';

beforeEach(() => {
  vi.useFakeTimers({ toFake: ['Date'] });
  vi.setSystemTime(new Date(2024, 4, 15, 10, 0, 0));
});
afterEach(() => vi.useRealTimers());

const popup = () => document.querySelector<HTMLElement>('.ant-picker-dropdown:not(.ant-picker-dropdown-hidden)');

describe('DateTimeInput', () => {
  it('shows the value as YYYY-MM-DD HH:mm:ss', () => {
    render(<DateTimeInput value="2024-05-10T08:30:00" />);
    expect((screen.getByRole('textbox') as HTMLInputElement).value).toBe('2024-05-10 08:30:00');
  });

  it.each([
    ['2024-05-10 08:30', '2024-05-10T08:30:00'],
    ['2024-05-10T08:30', '2024-05-10T08:30:00'],
    ['2024-05-10 08:30:15', '2024-05-10T08:30:15'],
    ['2024-05-10T08:30:15', '2024-05-10T08:30:15'],
  ])('accepts %s typed', async (typed, value) => {
    const user = userEvent.setup();
    const onChange = vi.fn();
    render(<DateTimeInput onChange={onChange} />);
    const input = screen.getByRole('textbox');
    await user.click(input);
    await waitFor(() => expect(popup()).toBeTruthy());
    await user.type(input, `${typed}{Enter}`);
    expect(onChange).toHaveBeenLastCalledWith(value);
  });

  it('ignores other shapes', async () => {
    const user = userEvent.setup();
    const onChange = vi.fn();
    render(<DateTimeInput onChange={onChange} />);
    const input = screen.getByRole('textbox');
    await user.click(input);
    await user.type(input, '10/05/2024 08:30{Enter}');
    expect(onChange).not.toHaveBeenCalled();
  });

  it('blocks future days unless allowed', async () => {
    const user = userEvent.setup();
    render(<DateTimeInput />);
    await user.click(screen.getByRole('textbox'));
    await waitFor(() => expect(popup()).toBeTruthy());
    expect(popup()!.querySelector('td[title="2024-05-16"]')!.className).toMatch(/disabled/);
    expect(popup()!.querySelector('td[title="2024-05-15"]')!.className).not.toMatch(/disabled/);
  });
});
