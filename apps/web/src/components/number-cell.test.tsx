import { render } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { setTestLanguage } from '../../test/i18n.ts';
import { NumberCell } from './number-cell.tsx';

describe('NumberCell', () => {
  it('shows 2 decimals with thousands separators in the UI language', async () => {
    const { container, rerender } = render(<NumberCell value={1234567.5} />);
    expect(container.textContent).toBe('1,234,567.50');
    rerender(<NumberCell value="12.3456" decimals={3} suffix="%" />);
    expect(container.textContent).toBe('12.346%');
    await setTestLanguage('es');
    rerender(<NumberCell value={1234.5} />);
    expect(container.textContent).toBe('1.234,50');
    rerender(<NumberCell value={undefined} />);
    expect(container.textContent).toBe('—');
  });
});
