/** The API's response envelope (spec section 7): every answer is `{status, message, data}`. */

export type EnvelopeStatus = 'success' | 'error';

export interface Envelope<T = unknown> {
  status: EnvelopeStatus;
  /** 'ok' on success; on error a stable i18n message key (see i18n catalogues) or a plain text. */
  message: string;
  data: T;
  /** Optional details for validation errors: field path -> message key. */
  errors?: Record<string, string>;
  /** Values interpolated into the message when it is translated. */
  params?: Record<string, string | number>;
}

export function ok<T>(data: T, message = 'ok'): Envelope<T> {
  return { status: 'success', message, data };
}

export function fail(
  message: string,
  extra: { errors?: Record<string, string>; params?: Record<string, string | number> } = {},
): Envelope<null> {
  return { status: 'error', message, data: null, ...extra };
}
