import Type from 'typebox';

/** A response object whose fields follow the spec's tables (documented, not enforced). */
export const AnyObject = Type.Object({}, { additionalProperties: true });
