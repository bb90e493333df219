import { CommandError } from '@xle/core';

/** Any failure to fetch, start or stop the local engine; the message says what to do about it. */
export class EngineError extends CommandError {
  constructor(code: string, message: string) {
    super(code, message);
    this.name = 'EngineError';
  }
}
