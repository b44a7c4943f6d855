import type { ZodError } from 'zod';

/** One invalid field of a request: where it is and what is wrong with it. */
export interface FieldProblem {
  field: string;
  message: string;
}

/**
 * A failure the caller can act on. Every interface (REST, tRPC, webhooks, OAuth) turns it into
 * the same envelope `{error, description, details?}` with `status` as the HTTP status.
 */
export class AppError extends Error {
  /** Response headers the client needs to act on the failure (`Retry-After` on a 429). */
  headers?: Record<string, string>;

  constructor(
    readonly status: number,
    readonly error: string,
    readonly description: string,
    readonly details?: FieldProblem[],
  ) {
    super(description);
    this.name = 'AppError';
  }

  withHeaders(headers: Record<string, string>): this {
    this.headers = headers;
    return this;
  }

  toBody(): ErrorBody {
    return this.details
      ? { error: this.error, description: this.description, details: this.details }
      : { error: this.error, description: this.description };
  }
}

export interface ErrorBody {
  error: string;
  description: string;
  details?: FieldProblem[];
  requestId?: string;
}

export const badRequest = (description: string, details?: FieldProblem[]) => new AppError(400, 'Bad Request', description, details);
export const unauthorized = (description: string) => new AppError(401, 'Unauthorized', description);
export const forbidden = (description: string) => new AppError(403, 'Forbidden', description);
export const notFound = (description = 'Resource not found') => new AppError(404, 'Not Found', description);
export const conflict = (description: string) => new AppError(409, 'Conflict', description);
export const payloadTooLarge = (description = 'Request body too large') => new AppError(413, 'Payload Too Large', description);
export const serviceUnavailable = (description: string) => new AppError(503, 'Service Unavailable', description);
/** A write that needs the workflow service, refused whole (rolled back) because Temporal cannot be reached. */
export const workflowServiceUnreachable = (cause: unknown) =>
  Object.assign(serviceUnavailable('The workflow service cannot be reached; nothing was changed. Retry shortly.'), { cause });
export const tooManyRequests = (description = 'Rate limit exceeded, retry later') => new AppError(429, 'Too Many Requests', description);

/**
 * Turns zod issues into the 400 envelope, one entry per invalid field. An unknown key is named as
 * its own field (`lineItems.0.vat`), so a client sees which key in which object was not taken.
 */
export function validationError(err: ZodError, where = 'request'): AppError {
  const details = err.issues.flatMap((i) =>
    i.code === 'unrecognized_keys'
      ? i.keys.map((key) => ({ field: [...i.path, key].join('.'), message: 'Unrecognized key' }))
      : [{ field: i.path.join('.') || '(root)', message: i.message }],
  );
  const summary = details.map((d) => `${d.field}: ${d.message}`).join('; ');
  return badRequest(`Invalid ${where}: ${summary}`, details);
}
