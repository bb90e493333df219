import { Readable } from 'node:stream';
import type { estypes } from '@elastic/elasticsearch';
import { BadRequestError, ErrorCode, lineWithMember, type HitPage, type RawHit } from '@xle/core';
import type { Json } from '@xle/documents';
import type { Engine } from '../engine.js';
import { buildExportQuery, IMMUTABLE_KINDS, type ExportKind } from '../queries/export.js';
import { encodePageMarker, parsePageMarker } from '../queries/markers.js';
import { latestLedger } from './ledgers.js';

/** Documents per engine page of an export (two pages in memory at most: one written, one read). */
export const EXPORT_PAGE = 1000;
/** How long the export's point in time lives between two pages. */
const KEEP_ALIVE = '2m';

export interface ExportRequest {
  from_ledger?: number | undefined;
  to_ledger?: number | undefined;
  cursor?: string | undefined;
}

/** The walk an export cursor resumes: its kind, ledger range and the last document sent. */
interface ExportWalk {
  from: number | undefined;
  to: number | undefined;
  after: estypes.FieldValue[] | undefined;
}

const scopeOf = (kind: ExportKind, from: number | undefined, to: number | undefined): string =>
  `export:${kind}:${from ?? ''}:${to ?? ''}`;

function badCursor(message: string): BadRequestError {
  return new BadRequestError(
    `Invalid query parameter "cursor": ${message}.`,
    { parameter: 'cursor', in: 'query' },
    ErrorCode.InvalidParameter,
  );
}

/**
 * Where an export starts or resumes. A first request pins the range of transactions and ledgers
 * (up to the newest indexed ledger, when no `to_ledger` is given), so a resumed walk never grows;
 * a cursor carries kind, range and the last document sent, and a range given beside it must be
 * the cursor's own.
 */
export async function exportWalk(engine: Engine, kind: ExportKind, request: ExportRequest): Promise<ExportWalk> {
  if (request.cursor === undefined) {
    const pin = IMMUTABLE_KINDS.has(kind) && request.to_ledger === undefined;
    return {
      from: request.from_ledger,
      to: pin ? (await latestLedger(engine)).ledger_index : request.to_ledger,
      after: undefined,
    };
  }
  const marker = parsePageMarker(request.cursor);
  const scope = marker?.scope.split(':');
  if (marker === undefined || scope?.length !== 4 || scope[0] !== 'export') throw badCursor('not one this API issued');
  if (scope[1] !== kind) throw badCursor(`it resumes an export of ${scope[1]}`);
  const bound = (text: string | undefined): number | undefined =>
    text === undefined || text === '' ? undefined : Number(text);
  const walk = { from: bound(scope[2]), to: bound(scope[3]), after: marker.after };
  if (
    (request.from_ledger !== undefined && request.from_ledger !== walk.from) ||
    (request.to_ledger !== undefined && request.to_ledger !== walk.to)
  )
    throw badCursor('from_ledger and to_ledger differ from the export it resumes');
  return walk;
}

/**
 * GET /export/{KIND}: every document of a kind whose ledger is in the range, in ledger order, as
 * NDJSON: one document per line, the indexed document as /search returns it, with `_cursor`, the
 * cursor that resumes the export after that line. Read a page at a time under one point in time
 * (the next page is read while the current one is written), so memory stays flat however long
 * the export. The first page is read before answering: a failing request is a clean 4xx or 5xx,
 * never a broken stream.
 */
export async function exportStream(
  engine: Engine,
  kind: ExportKind,
  request: ExportRequest,
  signal: AbortSignal,
  checkLine?: (line: Json) => void,
): Promise<Readable> {
  const walk = await exportWalk(engine, kind, request);
  const scope = scopeOf(kind, walk.from, walk.to);
  // A deleted ledger object is no longer in objects: its guard (deletions) is its tombstone line.
  // The walk reads under one point in time, the next page on its way while this one is written;
  // it closes the point in time however it ends.
  // The history kinds are read in the ranges that hold the export's ledgers only.
  const indices = await engine.indicesFor(kind === 'objects' ? ['objects', 'deletions'] : [kind], {
    ...(walk.from === undefined ? {} : { gte: walk.from }),
    ...(walk.to === undefined ? {} : { lte: walk.to }),
  });
  const pages = engine.rawHits(indices, buildExportQuery(kind, walk), {
    keepAlive: KEEP_ALIVE,
    pageSize: EXPORT_PAGE,
    prefetch: true,
    signal,
    after: walk.after,
  });
  // Each document goes out as the engine stored it, with its cursor appended: no parse, no
  // serialisation per document (the checker, under api.validateResponses, parses each line).
  const lines = (hits: RawHit[]): Buffer =>
    Buffer.concat(
      hits.map((hit) => {
        const line = lineWithMember(hit.source, '_cursor', JSON.stringify(encodePageMarker(scope, hit.sort)));
        if (checkLine !== undefined) checkLine(JSON.parse(line.toString('utf8')) as Json);
        return line;
      }),
    );
  // The first page is read before answering, so a failing request is a clean error.
  const first = await pages.next();
  async function* bytes(): AsyncGenerator<Buffer> {
    try {
      let page: IteratorResult<HitPage<RawHit>> = first;
      while (page.done !== true) {
        if (page.value.hits.length > 0) yield lines(page.value.hits);
        page = await pages.next();
      }
    } finally {
      await pages.return(undefined);
    }
  }
  const stream = Readable.from(bytes(), { objectMode: false });
  // The walk ends with the stream, however it ends: read to the end, failed, or destroyed before
  // its first read (a client gone at once; Readable.from's generator never started, so no
  // `finally` of its own would run).
  stream.once('close', () => void pages.return(undefined));
  return stream;
}
