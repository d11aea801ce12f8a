import { render, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { DateTimeInput } from './date-time-input.tsx';

beforeEach(() => {
  vi.useFakeTimers({ toFake: ['Date'] });
  vi.setSystemTime(new Date(2024, 4, 15, 10, 0, 0));
});
afterEach(() => vi.useRealTimers());

const popup = () =>
  document.querySelector<HTMLElement>('.ant-picker-dropdown:not(.ant-picker-dropdown-hidden)');

describe('DateTimeInput', () => {
  it('shows the value as YYYY-MM-DD HH:mm:ss', () => {
    const { rerender } = render(<DateTimeInput value="2024-05-10T08:30:00" />);
    expect((screen.getByRole('textbox') as HTMLInputElement).value).toBe('2024-05-10 08:30:00');
    rerender(<DateTimeInput value={null} />);
    expect(screen.getByRole('textbox').getAttribute('placeholder')).toBe('YYYY-MM-DD HH:mm:ss');
    rerender(<DateTimeInput value="2024-05-10T08:30:00" withSeconds={false} />);
    expect((screen.getByRole('textbox') as HTMLInputElement).value).toBe('2024-05-10 08:30');
  });

  it.each([
    ['typed', '2024-05-10 08:30', '2024-05-10T08:30:00'],
    ['typed', '2024-05-10T08:30:15', '2024-05-10T08:30:15'],
    ['pasted', '2024-05-10T08:30', '2024-05-10T08:30:00'],
    ['pasted', '2024-05-10 08:30:15', '2024-05-10T08:30:15'],
  ])('accepts a %s %s', async (how, text, value) => {
    const user = userEvent.setup();
    const onChange = vi.fn();
    render(<DateTimeInput onChange={onChange} />);
    const input = screen.getByRole('textbox');
    await user.click(input);
    await waitFor(() => expect(popup()).toBeTruthy());
    if (how === 'typed') await user.type(input, text);
    else await user.paste(text);
    await user.keyboard('{Enter}');
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
