/**
 * An answer that is not a success, as a thrown error: the HTTP status and, from the error envelope
 * (`{"error": {"code", "message", "param"}}`, docs/api.md), the API's code, message and parameter.
 * The v2 methods' own error bodies (`{"success": false, "errors": [...]}`) give their reasons as the
 * message and no code.
 */
export class ApiError extends Error {
  override readonly name = 'ApiError';
  constructor(
    readonly status: number,
    /** The API's error code (11 a parameter, 12 the token, 14 a scope, 15 unavailable, 16 rate limited...). */
    readonly code: number | undefined,
    message: string,
    readonly param: string | undefined,
    /** The body as the API sent it. */
    readonly body: unknown,
  ) {
    super(message);
  }

  /** The error of a failed openapi-fetch call (its `error` and `response`). */
  static from(response: Response, body: unknown): ApiError {
    const envelope = (body as { error?: { code?: unknown; message?: unknown; param?: unknown } } | undefined)?.error;
    if (envelope && typeof envelope === 'object') {
      const code = typeof envelope.code === 'number' ? envelope.code : undefined;
      const message = typeof envelope.message === 'string' ? envelope.message : `HTTP ${response.status}`;
      return new ApiError(response.status, code, message, typeof envelope.param === 'string' ? envelope.param : undefined, body);
    }
    const errors = (body as { errors?: unknown } | undefined)?.errors;
    const message = Array.isArray(errors) && errors.length > 0 ? errors.map(String).join('; ') : `HTTP ${response.status}`;
    return new ApiError(response.status, undefined, message, undefined, body);
  }
}

/** What an openapi-fetch call resolves to: the answer's data, or its error. */
interface Outcome<D> {
  data?: D;
  error?: unknown;
  response: Response;
}

/** The data of a successful call; an ApiError for any other answer. */
export function dataOf<D>(outcome: Outcome<D>): D {
  if (outcome.response.ok && outcome.data !== undefined) return outcome.data;
  throw ApiError.from(outcome.response, outcome.error);
}
