import { fireEvent, render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import { testI18n } from '../../test/i18n.ts';
import { UrlInput, urlRule } from './url-input.tsx';

describe('UrlInput', () => {
  it('says why an address is refused once the field is left', async () => {
    const user = userEvent.setup();
    render(<UrlInput aria-label="endpoint" />);
    const input = screen.getByLabelText('endpoint');
    await user.type(input, 'gopher://old.example');
    expect(screen.queryByText('The URL must start with http, https, ftp or ftps')).toBeNull();
    fireEvent.blur(input);
    expect(screen.getByText('The URL must start with http, https, ftp or ftps')).toBeTruthy();
    expect(input.getAttribute('aria-invalid')).toBe('true');
  });

  it.each([
    'http://a.example',
    'https://a.example/x?y=1',
    'ftp://files.example',
    'ftps://files.example:990/in',
  ])('accepts %s', async (url) => {
    const user = userEvent.setup();
    const onChange = vi.fn();
    render(<UrlInput aria-label="endpoint" onChange={onChange} />);
    const input = screen.getByLabelText('endpoint');
    await user.type(input, url);
    fireEvent.blur(input);
    expect(onChange).toHaveBeenLastCalledWith(url);
    expect(input.getAttribute('aria-invalid')).toBeNull();
    expect(screen.queryByText(/The URL must start/)).toBeNull();
  });

  it('offers the same rule for antd forms', async () => {
    const rule = urlRule(testI18n.t);
    await expect(rule.validator(null, 'https://ok.example')).resolves.toBeUndefined();
    await expect(rule.validator(null, '')).resolves.toBeUndefined();
    await expect(rule.validator(null, 'www.example.com')).rejects.toThrow(
      'The URL must start with http, https, ftp or ftps',
    );
  });
});
