import type { TObject, TSchema } from 'typebox';

type Json = Record<string, unknown>;

/** A plain JSON Schema copy of a TypeBox schema (its own `~` keys removed), for OpenAPI documents. */
export function plainSchema(schema: TSchema): Json {
  return JSON.parse(JSON.stringify(schema, (key, value: unknown) => (key.startsWith('~') ? undefined : value))) as Json;
}

/** The one error body every API answers with (see errorHandler). */
export const ERROR_BODY_SCHEMA: Json = {
  type: 'object',
  required: ['error'],
  properties: {
    error: {
      type: 'object',
      required: ['code', 'message'],
      properties: { code: { type: 'string' }, message: { type: 'string' }, details: {} },
    },
  },
};

/** An OpenAPI response answered with the shared error body (components.schemas.ErrorBody). */
export function errorResponse(description: string): Json {
  return { description, content: { 'application/json': { schema: { $ref: '#/components/schemas/ErrorBody' } } } };
}

/** OpenAPI parameter objects for each property of a path or query schema (path ones are required). */
export function openApiParameters(where: 'path' | 'query', object: TObject): Json[] {
  const required = new Set((object.required as string[] | undefined) ?? []);
  return Object.entries(object.properties as Record<string, TSchema>).map(([name, schema]) => {
    const { description, ...rest } = plainSchema(schema);
    return {
      name,
      in: where,
      required: where === 'path' || required.has(name),
      ...(description === undefined ? {} : { description }),
      schema: rest,
    };
  });
}
