import { beforeEach, describe, expect, it, vi } from 'vitest';
import { errorText, expireSession, handleSessionError } from './api.ts';
import { FetchError } from './fetch-client.ts';
import { i18n, initI18n, t } from './i18n.ts';
import { initialSession, useSession, type SessionUser } from './session-store.ts';
import * as toastModule from './toast.ts';

const user: SessionUser = {
  id: 1,
  mail: 'finance@adtech.example',
  name: 'F',
  token: 'tok',
  roles: [{ id: 10, name: 'FINANCE' }],
  acl: {},
  exp: 2e9,
  picture: null,
  simulated_by: null,
};

beforeEach(async () => {
  initI18n('en');
  await i18n.changeLanguage('en');
  localStorage.clear();
  useSession.setState({ ...initialSession(), user });
});

describe('i18n over the core catalogues', () => {
  it('uses flat dotted keys and {name} interpolation, in both languages', async () => {
    expect(t('login.mail.required')).toBe('E-mail is a required field');
    expect(t('login.welcome.hello', { name: 'Ana' })).toBe('Hi, Ana!');
    await i18n.changeLanguage('es');
    expect(t('login.welcome.hello', { name: 'Ana' })).toBe('¡Hola, Ana!');
    expect(t('auth.too_many_attempts', { minutes: 15 })).toContain('15 minutos');
  });
});

describe('error texts', () => {
  it("translates the envelope's message key, else takes the server's text, else the message", () => {
    expect(errorText(new FetchError('x', { httpStatus: 401, key: 'auth.invalid_credentials', text: 'server text' }))).toBe('Wrong e-mail or password');
    expect(errorText(new FetchError('x', { httpStatus: 400, key: 'no.such.key', text: 'Texto del servidor' }))).toBe('Texto del servidor');
    expect(errorText(new FetchError('Error 502: Bad Gateway', { httpStatus: 502 }))).toBe('Error 502: Bad Gateway');
    expect(errorText(new FetchError('x', { httpStatus: 429, key: 'auth.too_many_attempts', params: { minutes: 5 } }))).toBe(
      'Too many failed sign-in attempts. Try again in 5 minutes.',
    );
    expect(errorText(new Error('plain'))).toBe('plain');
    expect(errorText('weird')).toBe('An error occurs...');
  });
});

describe('session-ending errors', () => {
  it("an expired token toasts 'Token Expired, please logout and try again' and logs out, once", () => {
    const spy = vi.spyOn(toastModule.toast, 'error');
    const expired = new FetchError('x', { httpStatus: 401, key: 'auth.token_expired' });
    expect(handleSessionError(expired)).toBe(true);
    expect(spy).toHaveBeenCalledWith('Token Expired, please logout and try again');
    expect(useSession.getState().user).toBeNull();
    expect(handleSessionError(expired)).toBe(false); // already signed out
    spy.mockRestore();
  });

  it('an invalid token logs out with its own message; other errors are left to the caller', () => {
    const spy = vi.spyOn(toastModule.toast, 'error');
    expect(handleSessionError(new FetchError('x', { httpStatus: 403, key: 'auth.forbidden' }))).toBe(false);
    expect(useSession.getState().user).not.toBeNull();
    expect(handleSessionError(new FetchError('x', { httpStatus: 401, key: 'auth.token_invalid' }))).toBe(true);
    expect(spy).toHaveBeenCalledWith('Invalid session, please sign in again');
    expect(useSession.getState().user).toBeNull();
    spy.mockRestore();
  });

  it('expires a session whose exp has passed', () => {
    const spy = vi.spyOn(toastModule.toast, 'error');
    expireSession();
    expect(spy).toHaveBeenCalledWith('Token Expired, please logout and try again');
    expect(useSession.getState().user).toBeNull();
    spy.mockRestore();
  });
});
