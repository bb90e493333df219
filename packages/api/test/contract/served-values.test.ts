import { isDeepStrictEqual } from 'node:util';
import t from 'tap';
import { dropsToXrp, getNFTokenID, hashes, rippleTimeToISOTime, type TransactionMetadata } from 'xrpl';
import { listFixtureLedgers, pool, readRawLedger, xrplTime, type RawTransaction } from '@xle/test-helpers';
import { getJson, loadedIndices, serve } from '../fixtures/serve.js';

/**
 * What the API serves, value by value, against sources that share none of its code: the fixture
 * files as rippled (or its recorders) wrote them, read here as raw JSON (the binary one decoded by
 * xrpl.js), xrpl.js's own rules (transaction and ledger hashes, the NFT id of a mint, time), and
 * rippled's rules for the fields it synthesizes in its JSON answers, written out here from its
 * source (RPC::insertDeliveredAmount, insertNFTSyntheticInJson, the CTID of XLS-37).
 */
const target = await loadedIndices(t);
const base = await serve(t, target);

type Json = Record<string, unknown>;

const ledgers = listFixtureLedgers().map(readRawLedger);
const byHash = new Map<string, RawTransaction>();
for (const ledger of ledgers) for (const raw of ledger.transactions) byHash.set(String(raw.tx.hash).toUpperCase(), raw);
const transactions = [...byHash.values()];

/** The transaction's own fields (what rippled's `tx` answers beside `meta`, `hash`, `ledger_index`, `date`). */
function ownFields(tx: Json): Json {
  const { hash: _hash, ledger_index: _ledger, inLedger: _in, date: _date, ...fields } = tx;
  return fields;
}

/**
 * The transaction's id as xrpl.js computes it from its fields (API v2's DeliverMax is the binary
 * Amount).
 */
function transactionHash(tx: Json): string {
  const { DeliverMax, ...fields } = ownFields(tx);
  if (DeliverMax !== undefined && fields.Amount === undefined) fields.Amount = DeliverMax;
  return hashes.hashSignedTx(fields as never);
}

/** rippled's `delivered_amount` (RPC::insertDeliveredAmount, DeliveredAmount.cpp), from its source. */
function rippledDeliveredAmount(raw: RawTransaction): unknown {
  const type = raw.tx.TransactionType;
  if (type !== 'Payment' && type !== 'CheckCash' && type !== 'AccountDelete') return undefined;
  if (raw.meta.TransactionResult !== 'tesSUCCESS') return undefined;
  if (raw.meta.DeliveredAmount !== undefined) return raw.meta.DeliveredAmount;
  const amount = raw.tx.Amount ?? raw.tx.DeliverMax;
  if (amount !== undefined && (raw.ledgerIndex >= 4594095 || raw.closeTime > 446000000)) return amount;
  return 'unavailable';
}

type Node = { LedgerEntryType?: string; LedgerIndex?: string; FinalFields?: Json; NewFields?: Json };

function nodes(meta: Json, kind: 'CreatedNode' | 'ModifiedNode' | 'DeletedNode', type: string): Node[] {
  return ((meta.AffectedNodes ?? []) as Json[])
    .map((n) => n[kind] as Node | undefined)
    .filter((n): n is Node => n !== undefined && n.LedgerEntryType === type);
}

/** rippled's NFT fields (NFTSyntheticSerializer): xrpl.js's mint rule, the offers' own entries. */
function rippledNftFields(raw: RawTransaction): Json {
  if (raw.meta.TransactionResult !== 'tesSUCCESS') return {};
  // rippled's getNFTokenIDFromDeletedOffer: the deleted offers' tokens, sorted, each once.
  const deletedOfferIds = [
    ...new Set(nodes(raw.meta, 'DeletedNode', 'NFTokenOffer').map((n) => String(n.FinalFields?.NFTokenID))),
  ].sort();
  switch (raw.tx.TransactionType) {
    case 'NFTokenMint':
      return { nftoken_id: getNFTokenID(raw.meta as unknown as TransactionMetadata) };
    case 'NFTokenAcceptOffer':
      return { nftoken_id: deletedOfferIds[0] };
    case 'NFTokenCancelOffer':
      return { nftoken_ids: deletedOfferIds };
    case 'NFTokenCreateOffer':
      return { offer_id: nodes(raw.meta, 'CreatedNode', 'NFTokenOffer')[0]?.LedgerIndex };
    default:
      return {};
  }
}

/** XLS-37's CTID: 0xC, 28 bits of ledger, 16 of transaction index, 16 of network id (0 on mainnet). */
function ctidOf(ledgerIndex: number, transactionIndex: number, networkId = 0): string {
  const value = (0xcn << 60n) | (BigInt(ledgerIndex) << 32n) | (BigInt(transactionIndex) << 16n) | BigInt(networkId);
  return value.toString(16).toUpperCase().padStart(16, '0');
}

const served = new Map<string, Json>();
await pool(transactions, async (raw) => {
  const hash = String(raw.tx.hash).toUpperCase();
  const answer = await getJson(`${base}/tx/${hash}`);
  if (answer.status === 200) served.set(hash, answer.body as Json);
});

t.test('every fixture transaction is served, under the hash xrpl.js computes from its fields', async (t) => {
  const missing = transactions.filter((raw) => !served.has(String(raw.tx.hash).toUpperCase()));
  t.same(
    missing.map((r) => `${r.file} ${String(r.tx.hash)}`),
    [],
    `${served.size} of ${transactions.length} transactions served`,
  );
  let hashed = 0;
  const unencodable: string[] = [];
  const wrong: string[] = [];
  for (const raw of transactions) {
    let computed: string;
    try {
      computed = transactionHash(raw.tx);
    } catch (error) {
      unencodable.push(`${String(raw.tx.hash)}: ${(error as Error).message}`);
      continue;
    }
    if (served.get(computed)?.hash !== computed) wrong.push(`${raw.file}: nothing served under ${computed}`);
    hashed += 1;
  }
  t.same(wrong, [], 'each served under the hash of its fields');
  t.ok(hashed >= 1200, `${hashed} transactions hashed by xrpl.js and served under that hash`);
  t.same(unencodable, [], 'every transaction encodable by xrpl.js');
});

t.test('each transaction field and the metadata as the ledger file holds them', async (t) => {
  let compared = 0;
  const wrong: { where: string; served: unknown; file: unknown }[] = [];
  for (const raw of transactions) {
    const answer = served.get(String(raw.tx.hash).toUpperCase());
    if (answer === undefined) continue;
    const where = `${raw.file} ${String(raw.tx.hash)}`;
    const fields = ownFields(raw.tx);
    // rippled's API v2 writes a Payment's Amount as DeliverMax; the spec serves both.
    if (fields.DeliverMax !== undefined && fields.Amount === undefined) fields.Amount = fields.DeliverMax;
    const meta = answer.meta as Json;
    for (const [key, value] of Object.entries(fields))
      if (!isDeepStrictEqual(answer[key], value))
        wrong.push({ where: `${where} ${key}`, served: answer[key], file: value });
    for (const [key, value] of Object.entries(raw.meta))
      if (!isDeepStrictEqual(meta[key], value))
        wrong.push({ where: `${where} meta.${key}`, served: meta[key], file: value });
    if (answer.ledger_index !== raw.ledgerIndex)
      wrong.push({ where: `${where} ledger_index`, served: answer.ledger_index, file: raw.ledgerIndex });
    compared += 1;
  }
  t.same(wrong.slice(0, 10), [], `${wrong.length} values differ from the file's`);
  t.equal(compared, served.size, `${compared} transactions: every field and the whole metadata equal the file's`);
});

t.test('date, ctid and the synthesized metadata as rippled writes them', async (t) => {
  const counts = { delivered: 0, unavailable: 0, recorded: 0, nft: 0, ctid: 0 };
  const wrong: { where: string; served: unknown; expected: unknown }[] = [];
  const check = (where: string, served: unknown, expected: unknown): boolean => {
    if (isDeepStrictEqual(served, expected)) return true;
    wrong.push({ where, served, expected });
    return false;
  };
  for (const raw of transactions) {
    const answer = served.get(String(raw.tx.hash).toUpperCase());
    if (answer === undefined) continue;
    const where = `${raw.file} ${String(raw.tx.hash)}`;
    check(`${where} date`, answer.date, raw.date ?? rippleTimeToISOTime(raw.closeTime));
    const index = Number(raw.meta.TransactionIndex);
    const networkId = typeof raw.tx.NetworkID === 'number' ? raw.tx.NetworkID : 0;
    if (raw.ledgerIndex < 2 ** 28 && check(`${where} ctid`, answer.ctid, ctidOf(raw.ledgerIndex, index, networkId)))
      counts.ctid += 1;
    const meta = answer.meta as Json;
    const delivered = rippledDeliveredAmount(raw);
    if (check(`${where} delivered_amount`, meta.delivered_amount, delivered) && delivered !== undefined) {
      counts.delivered += 1;
      if (delivered === 'unavailable') counts.unavailable += 1;
    }
    // Where rippled itself wrote the field into the recorded answer, it is the same value.
    if (
      raw.meta.delivered_amount !== undefined &&
      check(`${where} delivered_amount as recorded`, meta.delivered_amount, raw.meta.delivered_amount)
    )
      counts.recorded += 1;
    const nft = rippledNftFields(raw);
    for (const key of ['nftoken_id', 'nftoken_ids', 'offer_id'])
      if (check(`${where} ${key}`, meta[key], nft[key]) && nft[key] !== undefined) counts.nft += 1;
  }
  t.same(wrong.slice(0, 10), [], `${wrong.length} values differ from rippled's rules`);
  t.ok(counts.delivered >= 250, `${counts.delivered} delivered amounts (${counts.unavailable} unavailable)`);
  t.ok(counts.nft >= 5, `${counts.nft} NFT fields`);
  t.comment(
    `${served.size} transactions: date by xrpl.js, ${counts.ctid} CTIDs, ${counts.delivered} delivered_amount ` +
      `(${counts.unavailable} "unavailable", ${counts.recorded} also recorded by rippled), ${counts.nft} NFT fields`,
  );
});

t.test('each ledger: its header as the file holds it, its hash as xrpl.js computes it', async (t) => {
  let hashed = 0;
  const seen = new Set<number>();
  for (const ledger of ledgers) {
    const index = Number(ledger.header.ledger_index);
    if (seen.has(index)) continue;
    seen.add(index);
    const answer = await getJson(`${base}/ledger/${index}`);
    if (!t.equal(answer.status, 200, `${ledger.file}: served`)) return;
    const body = answer.body as Json;
    const shown = (body.ledger ?? body) as Json;
    const expected = String(ledger.header.ledger_hash ?? ledger.header.hash).toUpperCase();
    t.equal(shown.ledger_hash, expected, `${ledger.file}: ledger_hash`);
    for (const key of ['parent_hash', 'account_hash', 'transaction_hash'])
      t.equal(shown[key], ledger.header[key], `${ledger.file}: ${key}`);
    t.equal(shown.close_time, xrplTime(ledger.header.close_time), `${ledger.file}: close_time`);
    t.equal(shown.close_time_resolution, Number(ledger.header.close_time_resolution), `${ledger.file}: resolution`);
    t.equal(shown.tx_count, ledger.transactions.length, `${ledger.file}: tx_count`);
    if (ledger.header.parent_close_time !== undefined && ledger.header.close_flags !== undefined) {
      const computed = hashes.hashLedgerHeader({
        ...ledger.header,
        ledger_index: index,
        total_coins: ledger.totalCoins,
        close_time: xrplTime(ledger.header.close_time),
        parent_close_time: xrplTime(ledger.header.parent_close_time),
        close_time_resolution: Number(ledger.header.close_time_resolution),
        close_flags: Number(ledger.header.close_flags),
      } as never);
      t.equal(computed, expected, `${ledger.file}: xrpl.js hashes the header to the served hash`);
      hashed += 1;
    }
  }
  t.ok(seen.size >= 60, `${seen.size} ledgers compared`);
  t.comment(`${seen.size} ledgers: header fields equal the files', ${hashed} hashed by xrpl.js to the served hash`);
});

t.test('total_coins: the exact digits, above 2^53', async (t) => {
  const ledger = ledgers.find((l) => l.file.includes('94084608'))!;
  const response = await fetch(`${base}/ledger/94084608`);
  const text = await response.text();
  t.match(text, new RegExp(`"total_coins":"?${ledger.totalCoins}\\b`), `total_coins ${ledger.totalCoins}`);
});

t.test('each account: its root as the newest metadata that touched it left it', async (t) => {
  // The newest state of every AccountRoot the fixtures' metadata created or modified (deleted ones
  // left out), by ledger then transaction index: what rippled's account_info would answer there.
  const newest = new Map<string, { at: number; fields: Json; hash: string; ledger: number }>();
  // rippled threads an entry (PreviousTxnID) to every transaction that modified it, also one whose
  // ModifiedNode has no FinalFields (nothing else changed): the newest such change, by entry id.
  const threaded = new Map<string, { at: number; hash: string; ledger: number }>();
  const deleted = new Set<string>();
  for (const raw of transactions) {
    const at = raw.ledgerIndex * 100_000 + Number(raw.meta.TransactionIndex);
    for (const node of (raw.meta.AffectedNodes ?? []) as Json[]) {
      const [kind, body] = Object.entries(node)[0] as [string, Node];
      if (body.LedgerEntryType !== 'AccountRoot') continue;
      const thread = threaded.get(String(body.LedgerIndex));
      if (kind !== 'DeletedNode' && (thread === undefined || thread.at < at))
        threaded.set(String(body.LedgerIndex), {
          at,
          hash: String(raw.tx.hash).toUpperCase(),
          ledger: raw.ledgerIndex,
        });
      const fields = (body.FinalFields ?? body.NewFields) as Json | undefined;
      if (typeof fields?.Account !== 'string') continue; // a node that records no state
      const account = fields.Account;
      const known = newest.get(account);
      if (known !== undefined && known.at > at) continue;
      if (kind === 'DeletedNode') deleted.add(account);
      else deleted.delete(account);
      newest.set(account, { at, fields, hash: String(raw.tx.hash).toUpperCase(), ledger: raw.ledgerIndex });
    }
  }
  const accounts = [...newest].filter(([account]) => !deleted.has(account));
  const wrong: { account: string; field: string; served: unknown; metadata: unknown }[] = [];
  await pool(accounts, async ([account, state]) => {
    const answer = await getJson(`${base}/account/${account}`);
    if (answer.status !== 200) {
      wrong.push({ account, field: 'status', served: answer.status, metadata: 200 });
      return;
    }
    const body = answer.body as Json;
    const thread = threaded.get(hashes.hashAccountRoot(account)) ?? state;
    const expected: Json = {
      Balance: state.fields.Balance,
      nativeBalance: String(dropsToXrp(String(state.fields.Balance))),
      Sequence: state.fields.Sequence,
      OwnerCount: state.fields.OwnerCount ?? 0,
      Flags: state.fields.Flags ?? 0,
      // rippled threads each entry to the transaction that last modified it.
      PreviousTxnID: thread.hash,
      PreviousTxnLgrSeq: thread.ledger,
      previousAffectingTransactionID: thread.hash,
      previousAffectingTransactionLedgerVersion: thread.ledger,
    };
    for (const [field, value] of Object.entries(expected))
      if (!isDeepStrictEqual(body[field], value)) wrong.push({ account, field, served: body[field], metadata: value });
  });
  t.same(wrong.slice(0, 10), [], `${wrong.length} account values differ from the metadata's newest state`);
  t.ok(accounts.length >= 400, `${accounts.length} accounts compared`);
  const onlyThreaded = accounts.filter(
    ([account, state]) => threaded.get(hashes.hashAccountRoot(account))?.hash !== state.hash,
  );
  t.ok(onlyThreaded.length >= 2, `${onlyThreaded.length} accounts whose newest change only threaded them`);
  // The issue's case: ledgers 11119607 and 11119619 thread rnuF96W4...'s root without FinalFields.
  const rnu = (await getJson(`${base}/account/rnuF96W4SZoCJmbHYBFoJZpR8eCaxNvekK`)).body as Json;
  t.match(rnu, {
    PreviousTxnID: '2C8546B84A5A234E90C33818B54D10A421B4D4568FB5957457C2B3C0C9653CE6',
    PreviousTxnLgrSeq: 11119619,
  });
  const root = (await getJson(`${base}/object/${hashes.hashAccountRoot('rnuF96W4SZoCJmbHYBFoJZpR8eCaxNvekK')}`))
    .body as Json;
  t.match(root, { ledger_index: 11119619, node: { PreviousTxnLgrSeq: 11119619 } }, 'its ledger object too');
  t.comment(
    `${accounts.length} accounts: Balance, XRP balance, Sequence, OwnerCount, Flags, PreviousTxnID equal the newest metadata`,
  );
});
