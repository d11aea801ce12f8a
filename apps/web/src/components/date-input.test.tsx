import { render, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { DateInput } from './date-input.tsx';

beforeEach(() => {
  vi.useFakeTimers({ toFake: ['Date'] });
  vi.setSystemTime(new Date(2024, 4, 15, 10, 0, 0));
});
afterEach(() => vi.useRealTimers());

const popup = () =>
  document.querySelector<HTMLElement>('.ant-picker-dropdown:not(.ant-picker-dropdown-hidden)');

describe('DateInput', () => {
  it('shows the date as YYYY/MM/DD with a translated placeholder', () => {
    const { rerender } = render(<DateInput value="2024-05-03" />);
    expect((screen.getByRole('textbox') as HTMLInputElement).value).toBe('2024/05/03');
    rerender(<DateInput value={null} />);
    expect(screen.getByRole('textbox').getAttribute('placeholder')).toBe('Select date');
  });

  it('reports an ISO date when a day is picked or typed', async () => {
    const user = userEvent.setup();
    const onChange = vi.fn();
    render(<DateInput onChange={onChange} />);
    await user.click(screen.getByRole('textbox'));
    await waitFor(() => expect(popup()).toBeTruthy());
    await user.click(popup()!.querySelector('td[title="2024-05-07"]')!);
    expect(onChange).toHaveBeenLastCalledWith('2024-05-07');
    await user.click(screen.getByRole('textbox'));
    await user.clear(screen.getByRole('textbox'));
    await user.type(screen.getByRole('textbox'), '2024/04/30{Enter}');
    expect(onChange).toHaveBeenLastCalledWith('2024-04-30');
  });

  it('blocks future dates unless allowed, and honours min', async () => {
    const user = userEvent.setup();
    const { unmount } = render(<DateInput min="2024-05-02" />);
    await user.click(screen.getByRole('textbox'));
    await waitFor(() => expect(popup()).toBeTruthy());
    expect(popup()!.querySelector('td[title="2024-05-16"]')!.className).toMatch(/disabled/);
    expect(popup()!.querySelector('td[title="2024-05-01"]')!.className).toMatch(/disabled/);
    expect(popup()!.querySelector('td[title="2024-05-02"]')!.className).not.toMatch(/disabled/);
    unmount();
    render(<DateInput allowFuture />);
    await user.click(screen.getByRole('textbox'));
    await waitFor(() => expect(popup()).toBeTruthy());
    expect(popup()!.querySelector('td[title="2024-05-16"]')!.className).not.toMatch(/disabled/);
  });
});
