import Type, { type TSchema } from 'typebox';

/**
 * Building blocks of the response schemas, written from the spec's field tables. Objects allow
 * additional properties where the spec says clients must tolerate them (ledger entries and
 * transactions carry every field rippled sends); the fields the spec names are typed.
 */

/** `T` or JSON null. */
export const Nullable = <T extends TSchema>(schema: T, description?: string) =>
  Type.Union([schema, Type.Null()], description === undefined ? {} : { description });

/** A classic address (base58, starts with r). */
export const Address = Type.String({ pattern: '^r[1-9A-HJ-NP-Za-km-z]{24,34}$', description: 'Classic address.' });

/** 64 hex characters (hashes, ledger entry ids, amendment ids). */
export const Hash = Type.String({ pattern: '^[0-9A-F]{64}$', description: '64 upper-case hex characters.' });

/** An instant as ISO 8601 UTC text. */
export const IsoDate = Type.String({ format: 'date-time', description: 'ISO 8601, UTC.' });

/** The spec's common label object (null when the account has no label). */
export const LabelObject = Type.Object(
  {
    name: Type.Optional(Type.String({ description: 'Label name (some records use `username` instead).' })),
    username: Type.Optional(Type.String()),
    desc: Type.Optional(Type.String()),
    account: Type.String({ description: 'The labelled address.' }),
    domain: Type.Optional(Type.String()),
    twitter: Type.Optional(Type.String({ description: 'Social handle.' })),
    verified: Type.Optional(Type.Boolean()),
  },
  { additionalProperties: true, description: 'A label of a well-known account.' },
);

/** A label, or null when the account has none. */
export const Label = Nullable(LabelObject, 'The label of the account, null when it has none.');

/**
 * An XRPL amount as rippled writes it: a string of drops for XRP, else an issued amount whose
 * `value` is a decimal string of up to 16 significant digits (served as text so it stays exact;
 * a JSON number would round it).
 */
export const IssuedAmount = Type.Object(
  {
    currency: Type.String({ description: 'Three-letter code or 40 hex characters.' }),
    issuer: Type.Optional(Type.String({ description: 'Issuing account (absent for an MPT or XRP object).' })),
    value: Type.String({ description: 'Decimal text, exact (up to 16 significant digits).' }),
  },
  { additionalProperties: true },
);
export const Amount = Type.Union([Type.String({ pattern: '^-?[0-9]+$', description: 'Drops of XRP.' }), IssuedAmount], {
  description: 'Drops of XRP as a string, or an issued amount.',
});

/** An object with the named fields typed, and any others tolerated. */
export const OpenObject = <P extends Record<string, TSchema>>(properties: P, description?: string) =>
  Type.Object(properties, { additionalProperties: true, ...(description === undefined ? {} : { description }) });
