import { setTimeout as sleep } from 'node:timers/promises';
import { errors } from '@elastic/elasticsearch';
import t from 'tap';
import { EngineBreaker, EngineUnavailableError } from '../../src/index.js';

t.test('held, the breaker answers every call 503 ENGINE_UNAVAILABLE until released', async (t) => {
  const breaker = new EngineBreaker({ probeMs: 500 });
  t.doesNotThrow(() => breaker.check(), 'closed: calls pass');
  breaker.hold('index layout not checked yet');
  t.ok(breaker.isOpen);
  t.throws(() => breaker.check(), EngineUnavailableError);
  try {
    breaker.check();
  } catch (error) {
    t.match(error, { status: 503, code: 'ENGINE_UNAVAILABLE', retryAfter: 1 });
  }
  breaker.release();
  t.notOk(breaker.isOpen);
  t.doesNotThrow(() => breaker.check(), 'released: calls pass again');
});

t.test('timeouts open the breaker only in a row; the probe closes it', async (t) => {
  const breaker = new EngineBreaker({ probeMs: 10 });
  t.teardown(() => breaker.stop());
  const timeout = new errors.TimeoutError('Request timed out');
  let engineAnswers = false;
  const probe = async (): Promise<void> => {
    if (!engineAnswers) throw new errors.TimeoutError('probe timed out');
  };
  breaker.trip(timeout, probe);
  t.notOk(breaker.isOpen, 'one timeout: a slow query, not a hung engine');
  breaker.answered();
  breaker.trip(timeout, probe);
  t.notOk(breaker.isOpen, 'an answer in between starts the count again');
  breaker.trip(timeout, probe);
  t.ok(breaker.isOpen, 'two in a row: open');
  t.throws(() => breaker.check(), EngineUnavailableError, 'every call answered 503 at once');
  await sleep(50);
  t.ok(breaker.isOpen, 'still open while the probe gets no answer');
  engineAnswers = true;
  await sleep(50);
  t.notOk(breaker.isOpen, 'the first answer of the probe closes it');
  breaker.trip(timeout, probe);
  t.notOk(breaker.isOpen, 'closed again, the count starts from nothing');
});

t.test('a refused query is an answer: it never opens the breaker', async (t) => {
  const breaker = new EngineBreaker({ probeMs: 10 });
  t.teardown(() => breaker.stop());
  const timeout = new errors.TimeoutError('Request timed out');
  const refused = new errors.ResponseError({
    statusCode: 400,
    body: {},
    headers: {},
    warnings: null,
    meta: {},
  } as never);
  breaker.trip(timeout, async () => undefined);
  breaker.trip(refused, async () => undefined);
  breaker.trip(timeout, async () => undefined);
  t.notOk(breaker.isOpen);
});
