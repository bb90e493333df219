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
