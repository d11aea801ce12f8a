import { fireEvent, render, screen } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { SliderInput } from './slider-input.tsx';

describe('SliderInput', () => {
  it('runs from 0 to 100 with marks at 20, 40, 60 and 80', () => {
    const { container } = render(<SliderInput aria-label="share" defaultValue={30} />);
    const handle = screen.getByRole('slider');
    expect(handle.getAttribute('aria-valuemin')).toBe('0');
    expect(handle.getAttribute('aria-valuemax')).toBe('100');
    const marks = [...container.querySelectorAll('.ant-slider-mark-text')].map((m) => m.textContent);
    expect(marks).toEqual(['20', '40', '60', '80']);
  });

  it('moves with the keyboard and reports the value', () => {
    const onChange = vi.fn();
    render(<SliderInput aria-label="share" defaultValue={99} onChange={onChange} />);
    const handle = screen.getByRole('slider');
    fireEvent.keyDown(handle, { key: 'ArrowRight', keyCode: 39 });
    fireEvent.keyDown(handle, { key: 'ArrowRight', keyCode: 39 });
    expect(onChange).toHaveBeenLastCalledWith(100);
    expect(handle.getAttribute('aria-valuenow')).toBe('100');
  });

  it('clamps an out-of-range value', () => {
    render(<SliderInput aria-label="share" value={140} />);
    expect(screen.getByRole('slider').getAttribute('aria-valuenow')).toBe('100');
  });
});
