import { isAppError } from './errors.js';

/**
 * The end of every command-line tool: exits with the command's code, or prints the error (with its
 * stable code when it has one) and exits with 1.
 */
export function exitWith(run: Promise<number>): void {
  run.then(
    (code) => process.exit(code),
    (error: unknown) => {
      console.error(
        isAppError(error)
          ? `error ${error.code}: ${error.message}`
          : `error: ${(error as Error)?.message ?? String(error)}`,
      );
      process.exit(1);
    },
  );
}
