import t from 'tap';
import { classifySearch } from '../../src/model/search-query.js';

t.test('an id whose form names its page goes there', async (t) => {
  t.same(classifySearch(' rsw3nDRopQQZDrZjzawak7hDz2gLwCPszw '), {
    kind: 'page',
    path: '/account/rsw3nDRopQQZDrZjzawak7hDz2gLwCPszw',
    what: 'account',
  });
  t.same(classifySearch('c4f66afe00000000'), { kind: 'page', path: '/tx/C4F66AFE00000000', what: 'transaction' });
  t.same(classifySearch('94084608'), { kind: 'page', path: '/ledger/94084608', what: 'ledger' });
  t.same(classifySearch('CNY.rKiCet8SdvWxPXnAgYarFUXMh1zCPz432Y'), {
    kind: 'page',
    path: '/token/CNY.rKiCet8SdvWxPXnAgYarFUXMh1zCPz432Y',
    what: 'token',
  });
  t.same(classifySearch('785354494B000000000000000000000000000000.rJNV9i4Q6zvRhpE2zjxgkvff3eGHQohZht'), {
    kind: 'page',
    path: '/token/xSTIK.rJNV9i4Q6zvRhpE2zjxgkvff3eGHQohZht',
    what: 'token',
  });
  t.same(classifySearch('nHB5kpvUaEpvCtwu31fMf6dTuuCNnWRctWrV3UEZ9rbtPdpvbUvJ'), {
    kind: 'page',
    path: '/validator/nHB5kpvUaEpvCtwu31fMf6dTuuCNnWRctWrV3UEZ9rbtPdpvbUvJ',
    what: 'validator',
  });
});

t.test('64 hex digits must be looked up', async (t) => {
  t.same(classifySearch('b0daf34d43e286943c5bbe79ba2cbdac9c385e194fe2959deaafa4b4c71e505e'), {
    kind: 'hex64',
    id: 'B0DAF34D43E286943C5BBE79BA2CBDAC9C385E194FE2959DEAAFA4B4C71E505E',
  });
});

t.test('anything else is refused with its reason', async (t) => {
  t.match(classifySearch(''), { kind: 'invalid', reason: /empty/ });
  t.match(classifySearch('rsw3nDRopQQZDrZjzawak7hDz2gLwCPszx'), { kind: 'invalid', reason: /checksum/ });
  t.match(classifySearch('5'), { kind: 'invalid', reason: /32570/ });
  t.match(classifySearch('USD.rsw3nDRopQQZDrZjzawak7hDz2gLwCPszx'), { kind: 'invalid', reason: /issuer/ });
  t.match(classifySearch('x'.repeat(150)), { kind: 'invalid', reason: /longer than any name/ });
  t.match(classifySearch('94,084,60'), { kind: 'text' }, 'not a grouped number: looked up as text');
});

t.test('what is not an id is looked up by name; ledger numbers may carry separators', async (t) => {
  t.same(classifySearch('  Ripple   Fox '), { kind: 'text', text: 'Ripple Fox', domain: false });
  t.same(classifySearch('ripplefox.com'), { kind: 'text', text: 'ripplefox.com', domain: true });
  t.same(classifySearch('RLUSD'), { kind: 'text', text: 'RLUSD', domain: false });
  t.same(classifySearch('AMM'), { kind: 'text', text: 'AMM', domain: false });
  for (const written of ['94,084,608', '94 084 608', '94.084.608', "94'084'608", '94\u202F084\u202F608'])
    t.same(classifySearch(written), { kind: 'page', path: '/ledger/94084608', what: 'ledger' }, written);
  t.match(classifySearch('1,000'), { kind: 'invalid', reason: /32570/ }, 'a grouped number out of bounds');
});
