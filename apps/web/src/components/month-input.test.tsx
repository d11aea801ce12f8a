import { render, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { setTestLanguage } from '../../test/i18n.ts';
import { MonthInput } from './month-input.tsx';

beforeEach(() => {
  vi.useFakeTimers({ toFake: ['Date'] });
  vi.setSystemTime(new Date(2024, 4, 15, 10, 0, 0));
});
afterEach(() => vi.useRealTimers());

const popup = () =>
  document.querySelector<HTMLElement>('.ant-picker-dropdown:not(.ant-picker-dropdown-hidden)');
const cell = (month: string) => popup()!.querySelector<HTMLElement>(`td[title="${month}"]`)!;

describe('MonthInput', () => {
  it('shows {year, month} as YYYY-MM and reports the picked month', async () => {
    const user = userEvent.setup();
    const onChange = vi.fn();
    render(<MonthInput value={{ year: 2024, month: 3 }} onChange={onChange} />);
    expect((screen.getByRole('textbox') as HTMLInputElement).value).toBe('2024-03');
    await user.click(screen.getByRole('textbox'));
    await waitFor(() => expect(popup()).toBeTruthy());
    await user.click(cell('2024-02'));
    expect(onChange).toHaveBeenLastCalledWith({ year: 2024, month: 2 });
  });

  it('blocks months outside min and max, and future months unless allowed', async () => {
    const user = userEvent.setup();
    const { unmount } = render(<MonthInput min={{ year: 2024, month: 2 }} />);
    await user.click(screen.getByRole('textbox'));
    await waitFor(() => expect(popup()).toBeTruthy());
    expect(cell('2024-01').className).toMatch(/disabled/);
    expect(cell('2024-02').className).not.toMatch(/disabled/);
    expect(cell('2024-05').className).not.toMatch(/disabled/);
    expect(cell('2024-06').className).toMatch(/disabled/);
    unmount();
    render(<MonthInput allowFuture max={{ year: 2024, month: 8 }} />);
    await user.click(screen.getByRole('textbox'));
    await waitFor(() => expect(popup()).toBeTruthy());
    expect(cell('2024-08').className).not.toMatch(/disabled/);
    expect(cell('2024-09').className).toMatch(/disabled/);
  });

  it('has a translated placeholder', async () => {
    await setTestLanguage('es');
    render(<MonthInput />);
    expect(screen.getByRole('textbox').getAttribute('placeholder')).toBe('Selecciona un mes');
  });
});
