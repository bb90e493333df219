import Type from 'typebox';
import { NotFoundError } from '@xle/core';
import type { Engine } from '../engine.js';
import { FIXED_OBJECT_IDS, ObjectIdParam, type FixedObjectName } from '../schemas/params.js';
import { defineRoute, NoQuery, type AnyRoute } from '../route.js';
import { rawEntry } from '@xle/documents';

type Json = Record<string, unknown>;

export function objectRoutes(engine: Engine): AnyRoute[] {
  return [
    defineRoute({
      method: 'get',
      path: '/object/{OBJECT_ID}',
      summary: 'A ledger object by id, or by one of the fixed names FeeSettings, Amendments, NegativeUNL, LedgerHashes',
      tags: ['Other resources'],
      params: Type.Object({ OBJECT_ID: ObjectIdParam }),
      query: NoQuery,
      response: Type.Object({
        index: Type.String(),
        ledger_index: Type.Integer(),
        node: Type.Object({}, { additionalProperties: true }),
        validated: Type.Boolean(),
      }),
      handler: async (_ctx, { params }) => {
        const id = FIXED_OBJECT_IDS[params.OBJECT_ID as FixedObjectName] ?? params.OBJECT_ID.toUpperCase();
        const doc = await engine.get<Json>('objects', id);
        if (doc === undefined || doc.deleted === true)
          throw new NotFoundError(`Ledger object ${id} is not in the indexed state.`, { index: id });
        const answer: Json = { index: id, ledger_index: doc.ledger_index, node: rawEntry(doc), validated: true };
        if (doc.ledger_hash !== undefined) answer.ledger_hash = doc.ledger_hash;
        return answer;
      },
    }),
  ];
}
