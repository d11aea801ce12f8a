import { render, screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import InputsShowcase from './inputs-showcase.tsx';

describe('InputsShowcase', () => {
  // One render of a dozen antd components; slow in jsdom on a busy machine.
  it('renders every shared input', { timeout: 120_000 }, () => {
    render(<InputsShowcase />);
    for (const name of [
      'DateRangeInput',
      'DateInput',
      'MonthInput',
      'DateTimeInput',
      'NumberInput',
      'CounterInput',
      'SliderInput',
      'AutocompleteInput',
      'UrlInput',
    ]) {
      expect(screen.getByText(name)).toBeTruthy();
    }
    expect(screen.getByText('€1,234,567.89')).toBeTruthy();
    expect(screen.getByRole('button', { name: /Upload CSV/ })).toBeTruthy();
    expect(screen.getByRole('button', { name: /Export/ })).toBeTruthy();
  });
});
