import t from 'tap';
import { cursorToken, parseCursorToken } from '../../src/engine/cursor-store.js';

t.test('a cursor token names an id and an expiry, and stays short', async (t) => {
  const id = 'AAECAwQFBgcICQoLDA0ODw';
  const expiresAt = Date.UTC(2026, 10, 27, 8, 1, 30);
  const token = cursorToken(id, expiresAt);
  t.ok(token.length < 40, `${token.length} characters`);
  t.same(parseCursorToken(token), { id, expiresAt });
});

t.test('anything but a token this service issues is a 400 INVALID_CURSOR', async (t) => {
  const id = 'AAECAwQFBgcICQoLDA0ODw';
  for (const bad of ['', 'abc', `${id}`, `${id}.`, `${id}.ZZ`, `${id}x.kx`, `${id}.1.2`, `../${id}.1`])
    t.throws(() => parseCursorToken(bad), { status: 400, code: 'INVALID_CURSOR' }, JSON.stringify(bad));
});
