/**
 * A refusal the simulator answers with: status, a stable error word, a message and the
 * problems (each naming the parameter or field). `extra` adds fields such as `existingIds`.
 */
export class SimHttpError extends Error {
  constructor(
    readonly status: number,
    readonly error: string,
    message: string,
    readonly problems: readonly string[] = [],
    readonly extra: Record<string, unknown> = {},
    readonly headers: Record<string, string> = {},
  ) {
    super(message);
    this.name = 'SimHttpError';
  }

  toBody(): Record<string, unknown> {
    return { error: this.error, message: this.message, problems: this.problems, ...this.extra };
  }
}

export function badRequest(message: string, problems: readonly string[]): SimHttpError {
  return new SimHttpError(400, 'bad_request', message, problems);
}

export function notFound(message: string): SimHttpError {
  return new SimHttpError(404, 'not_found', message, []);
}

export function conflict(
  message: string,
  problems: readonly string[],
  extra: Record<string, unknown> = {},
): SimHttpError {
  return new SimHttpError(409, 'conflict', message, problems, extra);
}
