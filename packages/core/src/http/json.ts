import { stringify as losslessStringify } from 'lossless-json';

/**
 * JSON text of an answer. Integers that may exceed 2^53 (a ledger's `total_coins`) are BigInt in
 * the shaped answer and written as exact number literals (lossless-json); every other answer
 * takes JSON.stringify, which is several times faster, and JSON.stringify's refusal of a BigInt
 * is what sends an answer down the lossless path.
 */
export function toJson(answer: unknown): string {
  try {
    return JSON.stringify(answer);
  } catch (error) {
    if (!(error instanceof TypeError) || !/BigInt/i.test(error.message)) throw error;
    return losslessStringify(answer) ?? 'null';
  }
}
