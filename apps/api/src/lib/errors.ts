/** Errors that become the envelope: a stable i18n key, an HTTP status, optional field errors. */
export class AppError extends Error {
  readonly statusCode: number;
  readonly key: string;
  readonly errors: Record<string, string> | undefined;
  readonly params: Record<string, string | number> | undefined;
  readonly headers: Record<string, string> | undefined;
  /** What the error answer carries in `data` (a 409's current row, the places that use a row). */
  readonly data: unknown;

  constructor(
    statusCode: number,
    key: string,
    extra: { errors?: Record<string, string>; params?: Record<string, string | number>; headers?: Record<string, string>; data?: unknown } = {},
  ) {
    super(key);
    this.name = 'AppError';
    this.statusCode = statusCode;
    this.key = key;
    this.errors = extra.errors;
    this.params = extra.params;
    this.headers = extra.headers;
    this.data = extra.data ?? null;
  }
}

export const badRequest = (key = 'error.validation', errors?: Record<string, string>) => new AppError(400, key, { errors });
export const unauthorized = (key = 'auth.token_missing') => new AppError(401, key);
export const forbidden = (key = 'auth.forbidden') => new AppError(403, key);
export const notFound = (key = 'error.not_found') => new AppError(404, key);
