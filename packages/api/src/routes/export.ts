import Type from 'typebox';
import Compile from 'typebox/compile';
import { AppError, defineRoute, ErrorCode, withRules, type AnyRoute } from '@xle/core';
import type { Json } from '@xle/documents';
import type { Engine } from '../engine.js';
import { EXPORT_KINDS, type ExportKind } from '../queries/export.js';
import { exportStream, exportWalk } from '../resources/export.js';
import { accountingExport } from '../resources/balance-export.js';
import { ACCOUNTING_COLUMNS } from '../shapers/accounting.js';
import { AccountParam } from '../schemas/params.js';
import { AccountingLine, EXPORT_LINES, ExportLine } from '../schemas/responses/export.js';
import { LEDGER_INDEX_MAX } from '../schemas/params.js';

const Ledger = (description: string) => Type.Integer({ minimum: 0, maximum: LEDGER_INDEX_MAX, description });

const ExportQuery = Type.Object(
  {
    from_ledger: Type.Optional(Ledger('First ledger of the export (default: the first indexed).')),
    to_ledger: Type.Optional(
      Ledger(
        'Last ledger of the export (default: transactions and ledgers, the newest indexed at the start; accounts and objects, none).',
      ),
    ),
    cursor: Type.Optional(
      Type.String({
        maxLength: 512,
        description: 'The `_cursor` of the last line received: the export resumes after it.',
      }),
    ),
  },
  { additionalProperties: false },
);

/**
 * Each kind's line checked against its published schema (api.validateResponses, as every JSON
 * answer is): a line that does not match ends the stream with RESPONSE_CONTRACT_VIOLATION.
 */
function lineChecker(kind: ExportKind): (line: Json) => void {
  const checker = Compile(EXPORT_LINES[kind]);
  return (line) => {
    if (checker.Check(line)) return;
    const errors = [...checker.Errors(line)].slice(0, 5).map((e) => ({ path: e.instancePath, message: e.message }));
    throw new AppError(
      500,
      ErrorCode.ResponseContractViolation,
      `An export line of ${kind} does not match its published schema.`,
      {
        details: { errors },
      },
    );
  };
}

const AccountingQuery = withRules(
  Type.Object(
    {
      account: Type.With(AccountParam, { description: 'The account whose balance changes are exported.' }),
      from: Type.Optional(Type.String({ format: 'date-time', description: 'Earliest close time, ISO 8601.' })),
      to: Type.Optional(Type.String({ format: 'date-time', description: 'Latest close time, ISO 8601.' })),
      format: Type.Optional(
        Type.Union([Type.Literal('csv'), Type.Literal('ndjson')], {
          default: 'csv',
          description: 'csv (text/csv, with a header) or ndjson (application/x-ndjson, one row object per line).',
        }),
      ),
    },
    { additionalProperties: false },
  ),
  [
    {
      parameter: 'from',
      message: 'after "to"',
      check: (q) => q.from === undefined || q.to === undefined || Date.parse(q.from) <= Date.parse(q.to),
    },
  ],
);

/** Bulk export (not in the spec). */
export function exportRoutes(engine: Engine, validateResponses: boolean): AnyRoute[] {
  const checkers = new Map(EXPORT_KINDS.map((kind) => [kind, validateResponses ? lineChecker(kind) : undefined]));
  return [
    // Before /export/{KIND}, which would take `balance_changes` for a kind.
    defineRoute({
      method: 'get',
      path: '/export/balance_changes',
      summary: 'Accounting export: an account’s balance changes as rows tax tools import (CSV or NDJSON)',
      description: `Streams one row per transaction of the account, oldest first (more when it sent or received several assets): ${ACCOUNTING_COLUMNS.map((c) => `\`${c}\``).join(', ')}. Amounts are exact decimal strings (XRP in XRP); the fee is apart, in XRP, on the transaction's first row; a failed transaction is a row with its fee only; an issuer column names a token's issuer (empty for XRP). Memory stays flat however long the history.`,
      tags: ['Export'],
      query: AccountingQuery,
      response: AccountingLine,
      produces: ['text/csv', 'application/x-ndjson'],
      handler: async ({ query }, ctx) => {
        const format = query.format ?? 'csv';
        const controller = new AbortController();
        ctx.res.once('close', () => {
          if (!ctx.res.writableFinished) controller.abort();
        });
        const body = await accountingExport(engine, { ...query, format }, controller.signal);
        ctx.type = format === 'csv' ? 'text/csv; charset=utf-8' : 'application/x-ndjson';
        ctx.set('Cache-Control', 'no-store');
        ctx.set('Content-Disposition', `attachment; filename="${query.account}-balance-changes.${format}"`);
        (ctx as { compress?: boolean }).compress = true;
        ctx.body = body;
        return undefined;
      },
    }),
    defineRoute({
      method: 'get',
      path: '/export/{KIND}',
      summary: 'Bulk export as NDJSON: every transaction, ledger, account or ledger object of a ledger range',
      description:
        'Streams one JSON document per line (`application/x-ndjson`; gzip, deflate or br when asked with Accept-Encoding), in ledger order: transactions by ledger and TransactionIndex, ledgers by index, accounts and ledger objects by the ledger of their last change. Each line is the indexed document (as /search returns it) plus `_cursor`: after a dropped connection, ask again with `cursor` = the `_cursor` of the last complete line, and the export goes on after it. Transactions and ledgers are pinned to the range of the first request, so a resumed export yields each one indexed when the export began exactly once. Accounts and ledger objects are current state: each line is a document as it is when read (the range applies to the ledger of its last change at that moment), one changed between a cut and its resumption comes again at its new place, and a deleted ledger object comes as its tombstone: `{index, LedgerEntryType, ledger_index, deleted: true}`, the guard the ingester keeps in place of the entry. Memory stays flat however long the export; access plans count it as one request.',
      tags: ['Export'],
      params: Type.Object({
        KIND: Type.Union(
          EXPORT_KINDS.map((k) => Type.Literal(k)),
          { description: 'What to export.' },
        ),
      }),
      query: ExportQuery,
      response: ExportLine,
      produces: ['application/x-ndjson'],
      handler: async ({ params, query }, ctx) => {
        const kind = params.KIND as ExportKind;
        const headers = (): void => {
          ctx.type = 'application/x-ndjson';
          ctx.set('Cache-Control', 'no-store');
          ctx.set('Content-Disposition', `inline; filename="${kind}.ndjson"`);
        };
        if (ctx.method === 'HEAD') {
          // The request checked (a bad cursor is a 400 here too), no point in time opened, no body.
          await exportWalk(engine, kind, query);
          headers();
          ctx.status = 200;
          return undefined;
        }
        const controller = new AbortController();
        ctx.res.once('close', () => {
          if (!ctx.res.writableFinished) controller.abort();
        });
        const body = await exportStream(engine, kind, query, controller.signal, checkers.get(kind));
        headers();
        // NDJSON is not in the compressible media types: compressed all the same when asked.
        (ctx as { compress?: boolean }).compress = true;
        ctx.body = body;
        return undefined;
      },
    }),
  ];
}
