import t from 'tap';
import { errors } from '@elastic/elasticsearch';
import type { AppError } from '../../src/index.js';
import {
  BadRequestError,
  DataNotReadyError,
  EngineTimeoutError,
  EngineUnavailableError,
  mapEngineError,
  NotFoundError,
  publicReason,
  toErrorBody,
} from '../../src/index.js';

t.test('app errors keep their status, code, message and details', async (t) => {
  const shaped = toErrorBody(new BadRequestError('limit must be <= 100', { parameter: 'limit' }, 'INVALID_PARAMETER'));
  t.same(shaped, {
    status: 400,
    body: { error: { code: 'INVALID_PARAMETER', message: 'limit must be <= 100', details: { parameter: 'limit' } } },
  });
  t.equal(toErrorBody(new NotFoundError('no such ledger')).status, 404);
  const notReady = toErrorBody(new DataNotReadyError('/api/v1/tokens'));
  t.equal(notReady.status, 503);
  t.equal(notReady.body.error.code, 'DATA_NOT_READY');
  t.ok(notReady.retryAfter);
});

t.test('anything else is a generic 500 that leaks nothing', async (t) => {
  const shaped = toErrorBody(new Error('connect ECONNREFUSED 10.0.0.7:9200 at Socket.internal (/srv/x.js:1)'));
  t.same(shaped, { status: 500, body: { error: { code: 'INTERNAL_ERROR', message: 'Internal server error.' } } });
});

t.test('engine client errors map explicitly', async (t) => {
  const unavailable = mapEngineError(new errors.ConnectionError('connect ECONNREFUSED'));
  t.type(unavailable, EngineUnavailableError);
  t.equal((unavailable as AppError).status, 503);
  t.equal((unavailable as AppError).retryAfter, 5);
  t.type(mapEngineError(new errors.TimeoutError('Request timed out')), EngineTimeoutError);
  const rejected = mapEngineError(
    new errors.ResponseError({
      body: { error: { root_cause: [{ reason: 'failed to parse date field [x]' }] } },
      statusCode: 400,
      headers: {},
      warnings: null,
      meta: {} as never,
    }),
  ) as AppError;
  t.equal(rejected.status, 400);
  t.equal(rejected.code, 'QUERY_REJECTED');
  t.same(rejected.details, { reason: 'failed to parse date field [x]' });
  const leaking = mapEngineError(
    new errors.ResponseError({
      body: {
        error: {
          root_cause: [
            {
              reason:
                'failed to create query: For input string: "x" [xrpl-mainnet-transactions-0000000000-g1], alias xle-test-1a2b-mainnet-ledgers, non-ledgers',
            },
          ],
        },
      },
      statusCode: 400,
      headers: {},
      warnings: null,
      meta: {} as never,
    }),
  ) as AppError;
  t.same(
    leaking.details,
    { reason: 'failed to create query: For input string: "x" [transactions], alias ledgers, non-ledgers' },
    'no backing index, prefix or range in an answer',
  );
  t.equal(publicReason(`${'a-'.repeat(40_000)}!`).length, 1001, 'a long reason is cut before it is scanned');
  const plain = new Error('not an engine error');
  t.equal(mapEngineError(plain), plain, 'other errors pass through untouched');
});
