import { render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { ConfigProvider } from 'antd';
import esES from 'antd/locale/es_ES';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { setTestLanguage } from '../../test/i18n.ts';
import { DateRangeInput } from './date-range-input.tsx';

// Wednesday 2024-05-15, 10:00 local time. Only Date is faked so antd's timers still run.
beforeEach(() => {
  vi.useFakeTimers({ toFake: ['Date'] });
  vi.setSystemTime(new Date(2024, 4, 15, 10, 0, 0));
});
afterEach(() => {
  vi.useRealTimers();
  window.innerWidth = 1024;
});

function popup(): HTMLElement {
  const el = document.querySelector<HTMLElement>('.ant-picker-dropdown:not(.ant-picker-dropdown-hidden)');
  if (!el) throw new Error('picker popup not open');
  return el;
}

function cell(date: string): HTMLElement {
  const el = popup().querySelector<HTMLElement>(`td[title="${date}"]`);
  if (!el) throw new Error(`no cell ${date}`);
  return el;
}

async function open(user: ReturnType<typeof userEvent.setup>) {
  await user.click(screen.getAllByRole('textbox')[0]!);
  await waitFor(() => popup());
}

describe('DateRangeInput', () => {
  it('shows the value as YYYY-MM-DD', () => {
    render(<DateRangeInput value={{ start: '2024-05-01', end: '2024-05-10' }} />);
    const [start, end] = screen.getAllByRole('textbox') as HTMLInputElement[];
    expect(start!.value).toBe('2024-05-01');
    expect(end!.value).toBe('2024-05-10');
  });

  it('offers the presets and reports the preset that was clicked', async () => {
    const user = userEvent.setup();
    const onChange = vi.fn();
    render(<DateRangeInput onChange={onChange} />);
    await open(user);
    const labels = within(popup())
      .getAllByText(/./, { selector: '[data-preset]' })
      .map((el) => el.textContent);
    expect(labels).toEqual([
      'Today',
      'Yesterday',
      'Last 2 days',
      'Last 7 days',
      'Last 30 days',
      'This month',
      'Last month',
      'This quarter',
      'Last quarter',
    ]);
    await user.click(within(popup()).getByText('Last 7 days'));
    expect(onChange).toHaveBeenLastCalledWith({
      start: '2024-05-09',
      end: '2024-05-15',
      preset: 'last7days',
    });
    await user.click(screen.getAllByRole('textbox')[0]!);
    await user.click(within(popup()).getByText('Last quarter'));
    expect(onChange).toHaveBeenLastCalledWith({
      start: '2024-01-01',
      end: '2024-03-31',
      preset: 'lastQuarter',
    });
    const [start, end] = screen.getAllByRole('textbox') as HTMLInputElement[];
    expect([start!.value, end!.value]).toEqual(['2024-01-01', '2024-03-31']);
  });

  it('reports a range picked by hand without a preset', async () => {
    const user = userEvent.setup();
    const onChange = vi.fn();
    render(<DateRangeInput onChange={onChange} />);
    await open(user);
    await user.click(cell('2024-05-09'));
    await user.click(cell('2024-05-15'));
    expect(onChange).toHaveBeenLastCalledWith({ start: '2024-05-09', end: '2024-05-15' });
  });

  it('translates the presets', async () => {
    await setTestLanguage('es');
    const user = userEvent.setup();
    render(<DateRangeInput />);
    await open(user);
    expect(within(popup()).getByText('Últimos 7 días')).toBeTruthy();
    expect(within(popup()).getByText('Trimestre pasado')).toBeTruthy();
    expect(screen.getAllByRole('textbox')[0]!.getAttribute('placeholder')).toBe('Fecha de inicio');
  });

  it('blocks future dates unless allowed', async () => {
    const user = userEvent.setup();
    const { unmount } = render(<DateRangeInput />);
    await open(user);
    expect(cell('2024-05-15').className).not.toMatch(/disabled/);
    expect(cell('2024-05-16').className).toMatch(/ant-picker-cell-disabled/);
    unmount();
    render(<DateRangeInput allowFuture />);
    await open(user);
    expect(cell('2024-05-16').className).not.toMatch(/disabled/);
  });

  it('applies min, max and a custom rule, and hides presets they refuse', async () => {
    const user = userEvent.setup();
    render(
      <DateRangeInput
        min="2024-05-03"
        max="2024-05-20"
        allowFuture
        disabledDate={(d) => d === '2024-05-10'}
      />,
    );
    await open(user);
    expect(cell('2024-05-02').className).toMatch(/disabled/);
    expect(cell('2024-05-03').className).not.toMatch(/disabled/);
    expect(cell('2024-05-10').className).toMatch(/disabled/);
    expect(cell('2024-05-21').className).toMatch(/disabled/);
    const labels = within(popup())
      .getAllByText(/./, { selector: '[data-preset]' })
      .map((el) => el.textContent);
    // Last 30 days and this month start before min; a range may span a blocked day.
    expect(labels).toEqual(['Today', 'Yesterday', 'Last 2 days', 'Last 7 days']);
  });

  it('starts weeks on Monday in English and Spanish', async () => {
    const user = userEvent.setup();
    const { unmount } = render(<DateRangeInput />);
    await open(user);
    const firstHeader = () => popup().querySelector('.ant-picker-content thead th')?.textContent;
    expect(firstHeader()).toMatch(/^mo/i);
    unmount();
    await setTestLanguage('es');
    render(
      <ConfigProvider locale={esES}>
        <DateRangeInput />
      </ConfigProvider>,
    );
    await open(user);
    expect(firstHeader()).toMatch(/^lu/i);
    // The first day column of May 2024 starts on Monday 29 April.
    const firstCell = popup().querySelector('.ant-picker-content tbody td');
    expect(firstCell?.getAttribute('title')).toBe('2024-04-29');
  });

  it('shows two months on desktop and one on mobile', async () => {
    const user = userEvent.setup();
    window.innerWidth = 1440;
    const { unmount } = render(<DateRangeInput />);
    await open(user);
    expect(popup().querySelectorAll('.ant-picker-panel')).toHaveLength(2);
    expect(popup().className).not.toMatch(/bo-range-single-month/);
    unmount();
    window.innerWidth = 375;
    render(<DateRangeInput />);
    await open(user);
    expect(popup().className).toMatch(/bo-range-single-month/);
    expect(popup().querySelector('style')?.textContent).toMatch(
      /panel:nth-child\(n\+2\) \{ display: none; \}/,
    );
  });

  it('widens month ranges to whole months, cut at today', async () => {
    const user = userEvent.setup();
    const onChange = vi.fn();
    render(<DateRangeInput unit="month" onChange={onChange} />);
    await open(user);
    const labels = within(popup())
      .getAllByText(/./, { selector: '[data-preset]' })
      .map((el) => el.textContent);
    expect(labels).toEqual(['This month', 'Last month', 'This quarter', 'Last quarter']);
    expect(cell('2024-06').className).toMatch(/disabled/);
    await user.click(cell('2024-02'));
    await user.click(cell('2024-05'));
    expect(onChange).toHaveBeenLastCalledWith({ start: '2024-02-01', end: '2024-05-15' });
  });

  it('takes the saved range of the report named by the route parameter', async () => {
    const onChange = vi.fn();
    const { rerender } = render(
      <DateRangeInput
        reportParam="12"
        reportRange={{ start: '2023-01-01', end: '2023-01-07', preset: 'last7days' }}
        onChange={onChange}
      />,
    );
    await waitFor(() =>
      expect(onChange).toHaveBeenCalledWith({ start: '2024-05-09', end: '2024-05-15', preset: 'last7days' }),
    );
    expect((screen.getAllByRole('textbox')[0] as HTMLInputElement).value).toBe('2024-05-09');
    // Re-rendering with the same report does not reset what the user chose since.
    rerender(
      <DateRangeInput
        reportParam="12"
        reportRange={{ start: '2023-01-01', end: '2023-01-07', preset: 'last7days' }}
        onChange={onChange}
      />,
    );
    expect(onChange).toHaveBeenCalledTimes(1);
    rerender(
      <DateRangeInput
        reportParam="13"
        reportRange={{ start: '2024-02-01', end: '2024-02-29' }}
        onChange={onChange}
      />,
    );
    await waitFor(() =>
      expect(onChange).toHaveBeenLastCalledWith({ start: '2024-02-01', end: '2024-02-29' }),
    );
  });
});
