import type { ErrorCode, FieldError } from '@strata/api';

/** Business code throws these; one middleware maps them to problem+json. */
export class AppError extends Error {
  /** Sent as `Retry-After` (429, 503): when asking again can succeed. */
  retryAfterSeconds?: number;

  constructor(
    readonly status: number,
    readonly code: ErrorCode,
    readonly title: string,
    readonly detail?: string,
    readonly errors?: FieldError[],
    /** Extra problem members (e.g. operationId). */
    readonly extra?: { operationId?: string },
  ) {
    super(detail ?? title);
  }
}

/** 429: the caller asked too often; `Retry-After` says when it may ask again. */
export function tooManyRequests(code: ErrorCode, title: string, detail: string, retryAfterSeconds?: number): AppError {
  const e = new AppError(429, code, title, detail);
  if (retryAfterSeconds !== undefined) e.retryAfterSeconds = Math.max(1, Math.ceil(retryAfterSeconds));
  return e;
}

export const validationFailed = (errors: FieldError[], detail = 'The request is invalid; see errors for each field.') =>
  new AppError(400, 'validation_failed', 'Invalid request', detail, errors);
export const unauthorized = (detail = 'Send a valid API token as `Authorization: Bearer <token>` or sign in.') =>
  new AppError(401, 'unauthorized', 'Unauthorized', detail);
export const forbidden = (detail: string) => new AppError(403, 'forbidden', 'Forbidden', detail);
export const notFound = (what: string) => new AppError(404, 'not_found', 'Not found', `${what} does not exist.`);
export const conflict = (code: ErrorCode, detail: string, errors?: FieldError[]) =>
  new AppError(409, code, 'Conflict', detail, errors);
export const unplaceable = (detail: string, errors: FieldError[]) =>
  new AppError(422, 'unplaceable', 'Cannot place cluster', detail, errors);
export const operationInProgress = (operationId: string, kind: string) =>
  new AppError(409, 'operation_in_progress', 'Another change is running', `Operation ${operationId} (${kind}) is still running on this cluster; wait for it, or pause/cancel it, then try again.`, undefined, { operationId });
export const doesNotFit = (detail: string, errors: FieldError[]) =>
  new AppError(422, 'does_not_fit', 'The change does not fit', detail, errors);
/** A request the API accepts in shape but cannot do (yet, or with this input): 422 with the field named. */
export const unprocessable = (code: ErrorCode, title: string, detail: string, errors: FieldError[]) =>
  new AppError(422, code, title, detail, errors);
