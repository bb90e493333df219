import { AppError } from '@xle/core';

/** Any failure to fetch, start or stop the local engine; the message says what to do about it. */
export class EngineError extends AppError {
  constructor(code: string, message: string) {
    super(500, code, message);
    this.name = 'EngineError';
  }
}
