import type { AddressInfo } from 'node:net';
import { WebSocketServer, type WebSocket } from 'ws';
import { readFixture } from './fixtures.js';
import {
  encodeAsStored,
  encodeLedgerHeader,
  hashLedgerHeader,
  normalizeLedger,
  type Json,
  type LedgerInput,
} from '@xle/documents';

/**
 * The recorded ledger with what old recordings lack (`parent_close_time`, `close_flags`: pre-2014
 * rippled did not write them) filled in with the values that make its header hash to its
 * `ledger_hash`: the hash proves them, so a binary answer carries the header the ledger has. The
 * parent closed at most ten minutes before; close_flags is 0, or 1 when the validators did not
 * agree on a close time (sLCF_NoConsensusTime). Undefined when no values fit.
 */
export function recoverLedgerHeader(ledger: LedgerInput): LedgerInput | undefined {
  if (ledger.parent_close_time !== undefined && ledger.close_flags !== undefined)
    return hashLedgerHeader(ledger) === ledger.ledger_hash ? ledger : undefined;
  for (const flags of ledger.close_flags === undefined ? [0, 1] : [ledger.close_flags]) {
    const latest = ledger.parent_close_time ?? ledger.close_time;
    const earliest = ledger.parent_close_time ?? Math.max(0, ledger.close_time - 600);
    for (let parent = latest; parent >= earliest; parent -= 1) {
      const candidate = { ...ledger, parent_close_time: parent, close_flags: flags };
      if (hashLedgerHeader(candidate) === ledger.ledger_hash) return candidate;
    }
  }
  return undefined;
}

/**
 * rippled's `binary: true` answer for a recorded ledger (any shape normalizeLedger reads): the
 * header serialized (`ledger_data`), each transaction as `tx_blob` (its signed fields, without the
 * JSON-only `hash`, `metaData` and API v1 `DeliverMax`) and `meta`, both serialized as rippled
 * stores them (documents' encodeAsStored: negative native amounts included).
 */
export function binaryLedgerAnswer(recorded: Json): Json {
  const ledger = normalizeLedger(recorded);
  // A complete header that does not hash (a test's tampering) is served as it is, as a dishonest
  // server would.
  const header = encodeLedgerHeader(recoverLedgerHeader(ledger) ?? ledger);
  if (header === undefined)
    throw new Error(`ledger ${ledger.ledger_index}: the recorded header lacks fields that no values recover`);
  return {
    ledger: {
      closed: true,
      ledger_data: header,
      transactions: ledger.transactions.map(({ hash: _hash, metaData, DeliverMax, ...fields }) => ({
        tx_blob: encodeAsStored(
          fields.Amount === undefined && DeliverMax !== undefined ? { ...fields, Amount: DeliverMax } : fields,
        ),
        meta: encodeAsStored(metaData as Json),
      })),
    },
    ledger_hash: ledger.ledger_hash,
    ledger_index: ledger.ledger_index,
    validated: true,
  };
}

/**
 * Binary answers already built, by recorded ledger (serializing with ripple-binary-codec takes
 * milliseconds a transaction; servers that replay the same ledgers share them). `tamper` records a
 * new object, so a changed ledger is serialized again.
 */
const binaryAnswers = new WeakMap<Json, Json>();

/**
 * A small WebSocket server standing in for rippled, because no XRPL server is reachable from
 * these machines. It answers the real xrpl Client with messages built from real recorded data:
 * `ledger` answers in API v2 form from the fixture ledgers (JSON, or binary when asked, as rippled
 * serializes them), `server_info` and `fee` from the
 * recorded mainnet answers, `ping`, `subscribe` and the validated-ledger stream; and it can refuse a
 * ledger (lgrNotFound) or drop every connection, as a real server or network does.
 */
export class ReplayRippled {
  private server: WebSocketServer | undefined;
  private readonly sockets = new Set<WebSocket>();
  private readonly subscribers = new Set<WebSocket>();
  /** Ledgers the server has, by index: rippled v1 `ledger` results (header + expanded transactions). */
  readonly ledgers = new Map<number, Json>();
  /** Ledgers answered with this rippled error instead. */
  readonly failing = new Map<number, string>();
  /** Every command received, in order. */
  readonly commands: string[] = [];
  validated = 0;
  /** The validated ledger's hash server_info names, when the server does not hold that ledger. */
  validatedHash: string | undefined;
  /** What server_info answers as `complete_ledgers` (default: 32570 to the validated ledger). */
  completeLedgers: string | undefined;
  /**
   * Answer server_info exactly as it was recorded (mainnet, ledger 82521701, 2023-09-13), for a
   * data set of recorded answers; by default the recorded figures are answered at this server's
   * own validated ledger, which the ingester follows.
   */
  recordedServerInfo = false;
  url = '';
  /** Each `ledger` answer waits this long, as a distant or busy server does. */
  ledgerDelayMs = 0;
  private readonly delayed = new Set<NodeJS.Timeout>();

  /** State the server pages through `ledger_data`: every entry of a ledger, and the page size. */
  readonly states = new Map<number, { entries: Json[]; pageSize: number }>();

  addState(ledgerIndex: number, entries: Json[], pageSize: number): void {
    this.states.set(ledgerIndex, { entries, pageSize });
  }

  addLedger(raw: Json): void {
    const ledger = ((raw.result as Json | undefined)?.ledger ?? raw.ledger ?? raw) as Json;
    const index = Number(ledger.ledger_index ?? ledger.seqNum);
    this.ledgers.set(index, ledger);
  }

  /**
   * Serves a changed copy of ledger `ledgerIndex` from now on, as a dishonest or broken server
   * would: `change` edits the recorded JSON (header and `transactions`, v1 shape) in place.
   */
  tamper(ledgerIndex: number, change: (ledger: Json) => void): void {
    const recorded = this.ledgers.get(ledgerIndex);
    if (recorded === undefined) throw new Error(`no ledger ${ledgerIndex} to tamper with`);
    const copy = structuredClone(recorded);
    change(copy);
    this.ledgers.set(ledgerIndex, copy);
  }

  async start(): Promise<string> {
    this.server = new WebSocketServer({ host: '127.0.0.1', port: 0 });
    await new Promise<void>((resolve) => this.server?.once('listening', resolve));
    this.server.on('connection', (socket) => {
      this.sockets.add(socket);
      socket.on('close', () => {
        this.sockets.delete(socket);
        this.subscribers.delete(socket);
      });
      socket.on('message', (data) => this.answer(socket, JSON.parse(String(data)) as Json));
    });
    this.url = `ws://127.0.0.1:${(this.server.address() as AddressInfo).port}`;
    return this.url;
  }

  /** Publishes a newly validated ledger on the ledger stream. */
  announce(ledgerIndex: number): void {
    this.validated = ledgerIndex;
    const ledger = this.ledgers.get(ledgerIndex);
    const message = {
      type: 'ledgerClosed',
      ledger_index: ledgerIndex,
      ledger_hash: ledger?.ledger_hash ?? ledger?.hash,
      ledger_time: ledger?.close_time,
      fee_base: 10,
      reserve_base: 20000000,
      reserve_inc: 5000000,
      txn_count: Array.isArray(ledger?.transactions) ? ledger.transactions.length : 0,
      validated_ledgers: `32570-${ledgerIndex}`,
    };
    for (const socket of this.subscribers) socket.send(JSON.stringify(message));
  }

  /**
   * Publishes a stream message (a `validations` or `manifests` stream message, for instance) to
   * every subscriber, as rippled does.
   */
  publish(message: Json): void {
    for (const socket of this.subscribers) socket.send(JSON.stringify(message));
  }

  /** Drops every connection abruptly, as a network failure would. */
  dropConnections(): void {
    for (const socket of this.sockets) socket.terminate();
  }

  async stop(): Promise<void> {
    for (const timer of this.delayed) clearTimeout(timer);
    this.delayed.clear();
    this.dropConnections();
    await new Promise<void>((resolve) => (this.server === undefined ? resolve() : this.server.close(() => resolve())));
  }

  private answer(socket: WebSocket, request: Json): void {
    const command = String(request.command);
    this.commands.push(command === 'ledger' ? `ledger ${String(request.ledger_index)}` : command);
    const reply = (result: Json): void =>
      socket.send(JSON.stringify({ id: request.id, type: 'response', status: 'success', result }));
    const fail = (error: string, message: string): void =>
      socket.send(
        JSON.stringify({ id: request.id, type: 'response', status: 'error', error, error_message: message, request }),
      );
    switch (command) {
      case 'ping':
        return reply({});
      case 'server_info': {
        const recorded = readFixture<{ result: { info: Json } }>(
          'rpc/xrpl-dev-portal/server_info.ws-response.json',
        ).result;
        if (this.recordedServerInfo) return reply(recorded);
        // The recorded validated_ledger (reserves, base fee, age) at this server's validated
        // ledger: its hash when the server holds that ledger or was told it, none otherwise.
        const recordedLedger = (recorded.info.validated_ledger ?? {}) as Json;
        const { hash: _recordedHash, ...figures } = recordedLedger;
        const ledger = this.ledgers.get(this.validated);
        const held = ledger?.ledger_hash ?? ledger?.hash ?? this.validatedHash;
        return reply({
          info: {
            ...recorded.info,
            validated_ledger: { ...figures, seq: this.validated, ...(typeof held === 'string' ? { hash: held } : {}) },
            complete_ledgers: this.completeLedgers ?? `32570-${this.validated}`,
          },
        });
      }
      case 'fee': {
        // The recorded mainnet answer of the rippled reference (ledger 26575101).
        const examples = readFixture<{ examples: { method: string; tab: string; response: { result: Json } }[] }>(
          'rpc/xrpl-dev-portal/doc-examples.json',
        ).examples;
        const recorded = examples.find((e) => e.method === 'fee' && e.tab === 'WebSocket');
        return recorded === undefined ? fail('internal', 'no recorded fee answer') : reply(recorded.response.result);
      }
      case 'subscribe':
        this.subscribers.add(socket);
        return reply({
          ledger_index: this.validated,
          fee_base: 10,
          reserve_base: 20000000,
          reserve_inc: 5000000,
          validated_ledgers: `32570-${this.validated}`,
        });
      case 'ledger': {
        const index = request.ledger_index === 'validated' ? this.validated : Number(request.ledger_index);
        const error = this.failing.get(index);
        if (error !== undefined) return fail(error, 'ledgerNotFound');
        const ledger = this.ledgers.get(index);
        if (ledger === undefined || index > this.validated) return fail('lgrNotFound', 'ledgerNotFound');
        const expand = request.expand === true && request.transactions === true;
        let answer: Json;
        if (expand && request.binary === true) {
          try {
            answer = binaryAnswers.get(ledger) ?? binaryLedgerAnswer(ledger);
          } catch (error) {
            return fail('internal', (error as Error).message);
          }
          binaryAnswers.set(ledger, answer);
        } else {
          answer = this.ledgerAnswer(ledger, expand);
        }
        if (this.ledgerDelayMs === 0) return reply(answer);
        const timer = setTimeout(() => {
          this.delayed.delete(timer);
          if (socket.readyState === socket.OPEN) reply(answer);
        }, this.ledgerDelayMs);
        this.delayed.add(timer);
        return;
      }
      case 'ledger_data': {
        // Pages of at most min(limit, pageSize) entries; the marker is opaque to clients, as
        // rippled's is (here: the position of the next entry, in hex).
        const state = this.states.get(Number(request.ledger_index));
        if (state === undefined) return fail('lgrNotFound', 'ledgerNotFound');
        const from = typeof request.marker === 'string' ? parseInt(request.marker, 16) : 0;
        if (!Number.isInteger(from) || from < 0 || from > state.entries.length)
          return fail('invalidParams', "Invalid field 'marker'.");
        const size = Math.min(Number(request.limit ?? state.pageSize), state.pageSize);
        const next = from + size;
        const ledger = this.ledgers.get(Number(request.ledger_index));
        return reply({
          ledger_index: Number(request.ledger_index),
          ...(ledger === undefined ? {} : { ledger_hash: ledger.ledger_hash ?? ledger.hash }),
          state: state.entries.slice(from, next),
          ...(next < state.entries.length ? { marker: next.toString(16).padStart(64, '0') } : {}),
          validated: true,
        });
      }
      default:
        return fail('unknownCmd', 'Unknown method.');
    }
  }

  /** rippled's API v2 `ledger` answer: transactions as {hash, tx_json, meta}. */
  private ledgerAnswer(ledger: Json, expand: boolean): Json {
    const { transactions, ...header } = ledger;
    const txs = Array.isArray(transactions) ? (transactions as Json[]) : [];
    const hash = header.ledger_hash ?? header.hash;
    return {
      ledger: {
        ...header,
        transactions: expand
          ? txs.map(({ hash: txHash, metaData, meta, ...fields }) => ({
              hash: txHash,
              tx_json: fields,
              meta: metaData ?? meta,
              validated: true,
            }))
          : txs.map((tx) => tx.hash),
      },
      ledger_hash: hash,
      ledger_index: Number(header.ledger_index ?? header.seqNum),
      validated: true,
    };
  }
}

/**
 * A replay server holding `ledgers`, with `validated` as its validated ledger, started, and
 * stopped when the test ends.
 */
export async function startReplay(
  t: { teardown: (fn: () => unknown) => void },
  ledgers: Iterable<LedgerInput | Json>,
  validated: number,
): Promise<ReplayRippled> {
  const server = new ReplayRippled();
  for (const ledger of ledgers) server.addLedger(structuredClone(ledger) as unknown as Json);
  server.validated = validated;
  await server.start();
  t.teardown(() => server.stop());
  return server;
}
