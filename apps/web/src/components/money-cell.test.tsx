import { render } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { setTestLanguage } from '../../test/i18n.ts';
import { MoneyCell } from './money-cell.tsx';

describe('MoneyCell', () => {
  it('shows EUR as € and USD as $ with 2 decimals and thousands separators', () => {
    const { container, rerender } = render(<MoneyCell amount="1234567.891" currency="EUR" />);
    expect(container.textContent).toBe('€1,234,567.89');
    rerender(<MoneyCell amount={1500} currency="USD" />);
    expect(container.textContent).toBe('$1,500.00');
  });

  it('follows the UI language', async () => {
    await setTestLanguage('es');
    const { container } = render(<MoneyCell amount="1234.5" currency="EUR" />);
    expect(container.textContent).toBe('1.234,50\u00a0€');
  });

  it('keeps decimal strings exact and shows a dash when there is no amount', () => {
    const { container, rerender } = render(<MoneyCell amount="0.005" currency="EUR" />);
    expect(container.textContent).toBe('€0.01');
    rerender(<MoneyCell amount={null} currency="EUR" />);
    expect(container.textContent).toBe('—');
  });

  it('can mark negative amounts', () => {
    const { container } = render(<MoneyCell amount="-20" currency="EUR" highlightNegative />);
    const span = container.querySelector('span')!;
    expect(span.textContent).toBe('-€20.00');
    expect(span.style.color).not.toBe('');
  });
});
