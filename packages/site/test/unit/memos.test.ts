import t from 'tap';
import { memosOf } from '../../src/model/memos.js';
import { fixtureTx } from '../fixtures/site.js';

t.test('memo fields decoded to text where they are text', async (t) => {
  // A real OfferCreate with a client memo.
  t.same(memosOf(fixtureTx('A357FD7C8F0B')), [
    {
      type: { hex: '636C69656E74', text: 'client' },
      data: { hex: '67617465687562', text: 'gatehub' },
      format: { hex: '746578742F706C61696E', text: 'text/plain' },
    },
  ]);
  t.same(
    memosOf({ Memos: [{ Memo: { MemoData: 'FF00' } }] }),
    [{ data: { hex: 'FF00' } }],
    'bytes that are no text stay hex',
  );
  t.same(memosOf({}), []);
});
