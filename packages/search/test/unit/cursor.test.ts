import t from 'tap';
import { openCursor } from '../../src/sql/export.js';
import { initialState } from '../../src/sql/execute.js';
import { TokenSealer } from '../../src/tokens.js';

t.test('a cursor lives 90 s between pages, exactly', async (t) => {
  const sealer = new TokenSealer('test secret');
  const issued = Date.UTC(2026, 10, 27, 8, 0, 0);
  const token = sealer.seal('sql', {
    sql: 'SELECT hash FROM transactions',
    state: initialState(),
    fetchSize: 10,
    issued,
  });
  t.equal(openCursor(sealer, token, issued + 90_000).sql, 'SELECT hash FROM transactions', 'at 90 s: still good');
  t.throws(() => openCursor(sealer, token, issued + 90_001), {
    status: 400,
    code: 'INVALID_CURSOR',
    message: /expired .*cursors live 90 s between pages/,
  });
  t.throws(() => openCursor(new TokenSealer('another secret'), token, issued), { code: 'INVALID_CURSOR' }, 'forged');
});
