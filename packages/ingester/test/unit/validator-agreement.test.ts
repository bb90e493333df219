import t from 'tap';
import {
  agreementOf,
  buildValidatorDocs,
  dayOf,
  dayStart,
  groupLedgers,
  parseValidation,
  periodsOf,
  verifyValidatorList,
  type LedgerRef,
  type SignedValidatorList,
  type ValidationStreamMessage,
  type ValidatorDoc,
  type ValidatorInputs,
} from '../../src/index.js';
import { createTestValidator, signValidation, signValidatorList } from '@xle/test-helpers';
import { isoToRippleTime } from '@xle/documents';

const END = isoToRippleTime('2025-02-12T12:00:00.000Z');
/** A ledger every 4 s for the 30 days before END, plus a few more days before that. */
function ledgers(from: number, to: number, first = 90_000_000): LedgerRef[] {
  const out: LedgerRef[] = [];
  for (let time = from, i = 0; time <= to; time += 4, i += 1)
    out.push({
      ledger_index: first + i,
      ledger_hash: (first + i).toString(16).toUpperCase().padStart(64, '0'),
      close_time: time,
    });
  return out;
}

t.test('agreementOf: scores as five-decimal strings, capped', async (t) => {
  t.same(agreementOf(987, 1000, false), { missed: 13, total: 1000, score: '0.98700', incomplete: false });
  t.same(agreementOf(5, 3, false), { missed: 0, total: 3, score: '1.00000', incomplete: false });
  t.same(agreementOf(0, 0, false), { missed: 0, total: 0, score: '0.00000', incomplete: true });
});

t.test('grouping and periods over a whole day and the windows', async (t) => {
  const day = dayOf(END); // 2025-02-12, still running at END
  const yesterday = dayOf(END - 86_400);
  const all = ledgers(dayStart(yesterday), END);
  const groups = groupLedgers(all, END, new Set([day, yesterday]));
  const total = [...groups.values()].reduce((s, l) => s + l.length, 0);
  t.equal(total, all.length, 'every ledger in one group');
  const { windows, days } = periodsOf(groups, END, dayStart(yesterday));
  t.equal(windows.agreement_1h.total, 900, 'one ledger every 4 s');
  t.equal(windows.agreement_24h.total, 21_600);
  t.equal(windows.agreement_1h.complete, true);
  t.equal(windows.agreement_30day.complete, false, 'validations collected only since yesterday');
  t.same(days.get(yesterday), { total: 21_600, complete: true });
  t.same(days.get(day), { total: 10_801, complete: false }, 'today is not over');
  const gap = all.filter((l) => l.ledger_index !== 90_010_000);
  t.equal(
    periodsOf(groupLedgers(gap, END, new Set([yesterday])), END, 0).days.get(yesterday)?.complete,
    false,
    'a gap',
  );
});

t.test('buildValidatorDocs: UNL, ephemeral keys mapped to masters, reports', async (t) => {
  const publisher = createTestValidator('agreement/publisher');
  const a = createTestValidator('agreement/a', { domain: 'a.example' });
  const b = createTestValidator('agreement/b');
  const c = createTestValidator('agreement/c'); // not listed, no manifest known
  const signed = signValidatorList(publisher, [a, b], { sequence: 1, expiration: END + 86_400 });
  const list = verifyValidatorList(signed as unknown as SignedValidatorList, { now: new Date('2025-02-12T00:00:00Z') });
  const recent = ledgers(END - 3600 + 4, END); // the last hour: 900 ledgers
  const groups = groupLedgers(recent, END, new Set([dayOf(END)]));
  const group = [...groups.keys()][0]!;
  const last = recent.at(-1)!;
  const newest = (who: typeof a, master: boolean, full = true) =>
    parseValidation(
      signValidation(who, {
        ledger_index: last.ledger_index,
        ledger_hash: last.ledger_hash,
        signing_time: last.close_time,
        full,
        withMasterKey: master,
        amendments: ['AA'.repeat(32)],
      }) as unknown as ValidationStreamMessage,
    );
  const inputs: ValidatorInputs = {
    groups,
    // a: 900/900 (under its master key); b: 450 under its ephemeral key (no master_key sent); c: 10.
    agreed: new Map([
      [a.master_key, new Map([[group, 900]])],
      [b.signing_key, new Map([[group, 450]])],
      [c.signing_key, new Map([[group, 10]])],
    ]),
    newest: new Map([
      [a.master_key, newest(a, true)],
      [b.signing_key, newest(b, false, false)],
      [c.signing_key, newest(c, false)],
    ]),
    seenDays: new Map([
      [a.master_key, new Set([dayOf(END)])],
      [b.signing_key, new Set([dayOf(END)])],
      [c.signing_key, new Set([dayOf(END)])],
    ]),
    manifests: [],
    coverageStart: END - 7200,
  };
  const asOf = { ledger_index: last.ledger_index, close_time: '2025-02-12T12:00:00.000Z', total_coins: '0' };
  const docs = buildValidatorDocs(inputs, { name: 'vl.example', list }, asOf, 'mainnet');
  const byId = new Map(docs.map((d) => [d._id, d.doc as unknown as ValidatorDoc]));
  t.same([...byId.keys()].sort(), [a.master_key, b.master_key, c.signing_key].sort());
  t.match(byId.get(a.master_key), {
    ephemeral_key: a.signing_key,
    domain: 'a.example',
    unl: ['vl.example'],
    active: true,
    partial: false,
    chain: 'main',
    meta: { manifest: a.manifest, verified: true },
    server_version: { version: '2.3.0' },
    votes: { amendments: ['AA'.repeat(32)] },
    agreement_1h: { missed: 0, total: 900, score: '1.00000', incomplete: false },
    agreement_30day: { total: 900, incomplete: true },
  });
  t.match(byId.get(b.master_key), {
    signing_key: b.signing_key,
    partial: true,
    agreement_1h: { missed: 450, total: 900, score: '0.50000' },
    reports: [{ date: '2025-02-12T00:00:00.000Z', total: '900', missed: '450', score: '0.50000', incomplete: true }],
  });
  t.match(byId.get(c.signing_key), { unl: [], active: true, agreement_1h: { missed: 890 } });
  t.notOk(byId.get(c.signing_key)?.meta, 'no manifest known');
  const again = buildValidatorDocs(inputs, { name: 'vl.example', list }, asOf, 'mainnet');
  t.same(again, docs, 'pure: the same inputs give the same documents');
});
