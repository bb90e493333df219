import t from 'tap';
import BigNumber from 'bignumber.js';
import type { Json } from '@xle/documents';
import { fixtureLedgers } from '@xle/test-loaded';
import { summarize, type Segment } from '../../src/model/summary.js';

/**
 * The amounts a summary states for an exchange (a Payment to oneself) and for what an OfferCreate
 * traded are what moved: the sender's own balance changes, the fee apart. They are computed here
 * a second way, straight from each fixture transaction's AffectedNodes (an AccountRoot's Balance
 * before and after; a RippleState's Balance, whose sign is the low account's side), for every
 * such transaction of every fixture ledger.
 */

type Node = { LedgerEntryType?: string; FinalFields?: Json; NewFields?: Json; PreviousFields?: Json };

/** The sender's net change per asset ("XRP" or "CUR.issuer"), the fee added back, zeros left out. */
function senderMoves(tx: Json): Map<string, BigNumber> {
  const sender = tx.Account as string;
  const moves = new Map<string, BigNumber>();
  const add = (asset: string, value: BigNumber): void => {
    moves.set(asset, (moves.get(asset) ?? new BigNumber(0)).plus(value));
  };
  const meta = (tx.meta ?? tx.metaData) as { AffectedNodes: Record<string, Node>[] };
  for (const wrapper of meta.AffectedNodes) {
    const [kind, node] = Object.entries(wrapper)[0] as [string, Node];
    const after = node.FinalFields ?? node.NewFields ?? {};
    const previous = node.PreviousFields ?? {};
    if (node.LedgerEntryType === 'AccountRoot' && after.Account === sender) {
      const end = new BigNumber(String(after.Balance ?? 0));
      const start =
        kind === 'CreatedNode' ? new BigNumber(0) : new BigNumber(String(previous.Balance ?? after.Balance));
      add('XRP', end.minus(start).shiftedBy(-6));
    }
    if (node.LedgerEntryType === 'RippleState') {
      const low = (after.LowLimit as Json).issuer;
      const high = (after.HighLimit as Json).issuer;
      if (low !== sender && high !== sender) continue;
      const value = (side: unknown): BigNumber => new BigNumber(String((side as Json | undefined)?.value ?? 0));
      const end = value(after.Balance);
      const start = kind === 'CreatedNode' ? new BigNumber(0) : value(previous.Balance ?? after.Balance);
      const delta = end.minus(start);
      const currency = (after.Balance as Json).currency as string;
      if (low === sender) add(`${currency}.${high as string}`, delta);
      else add(`${currency}.${low as string}`, delta.negated());
    }
  }
  add('XRP', new BigNumber(String(tx.Fee)).shiftedBy(-6));
  for (const [asset, value] of moves) if (value.isZero()) moves.delete(asset);
  return moves;
}

/** The amounts of a run of segments, as asset → value. */
function amountsOf(segments: readonly Segment[]): Map<string, string> {
  const out = new Map<string, string>();
  for (const s of segments)
    if (s.kind === 'amount')
      out.set(
        s.amount.issuer === undefined ? s.amount.code : `${s.amount.currency}.${s.amount.issuer}`,
        s.amount.value,
      );
  return out;
}

const textAt = (segments: readonly Segment[], pattern: RegExp): number =>
  segments.findIndex((s) => s.kind === 'text' && pattern.test(s.text));

let exchanges = 0;
let trades = 0;
for (const ledger of fixtureLedgers())
  for (const raw of ledger.transactions) {
    const { metaData, ...fields } = raw as Json & { metaData: Json };
    const tx: Json = { ...fields, meta: metaData, ledger_index: ledger.ledger_index };
    if ((metaData as Json).TransactionResult !== 'tesSUCCESS') continue;
    const segments = summarize(tx);
    let stated: readonly Segment[] | undefined;
    if (tx.TransactionType === 'Payment' && tx.Account === tx.Destination) {
      const limit = textAt(segments, /^ \(spending at most $/);
      stated = limit < 0 ? segments : segments.slice(0, limit);
      exchanges += 1;
    } else if (tx.TransactionType === 'OfferCreate') {
      const traded = textAt(segments, /^: traded $/);
      if (traded < 0) continue;
      stated = segments.slice(traded);
      trades += 1;
    } else continue;
    const moves = senderMoves(tx);
    const expected = new Map([...moves].map(([asset, value]) => [asset, value.abs()]));
    const found = amountsOf(stated);
    const wrong = [...expected].filter(([asset, value]) => !new BigNumber(found.get(asset) ?? NaN).eq(value));
    if (wrong.length > 0 || found.size !== expected.size)
      t.fail(`${String(tx.hash)}: states ${JSON.stringify([...found])}, moved ${JSON.stringify([...expected])}`);
  }

t.test('every exchange and every trade states what moved', async (t) => {
  t.ok(exchanges >= 15, `${exchanges} exchanges (Payments to oneself)`);
  t.ok(trades >= 20, `${trades} OfferCreates that traded`);
});
