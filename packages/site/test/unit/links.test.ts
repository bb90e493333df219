import t from 'tap';
import { tokenHref, tokenPathCode } from '../../src/model/links.js';

t.test('a token is addressed by its readable code when it reads back, else by its hex', async (t) => {
  t.equal(tokenPathCode('USD'), 'USD');
  t.equal(tokenPathCode('0000000000000000000000005553440000000000'), 'USD');
  t.equal(tokenPathCode('785354494B000000000000000000000000000000'), 'xSTIK');
  // An LP token and codes that do not decode keep their hex.
  t.equal(tokenPathCode('03930D02208264E2E40EC1B0C09E4DB96EE197B1'), '03930D02208264E2E40EC1B0C09E4DB96EE197B1');
  t.equal(tokenPathCode('FF00000000000000000000000000000000000000'), 'FF00000000000000000000000000000000000000');
  t.equal(tokenHref('USD', 'rvYAfWj5gh67oV6fW32ZzP3Aw4Eubs59B'), '/token/USD.rvYAfWj5gh67oV6fW32ZzP3Aw4Eubs59B');
});
