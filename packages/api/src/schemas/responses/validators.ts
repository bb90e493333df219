import Type from 'typebox';
import { Hash, IsoDate, Nullable, OpenObject } from './common.js';
import { NodePublicKey } from './data-sets.js';

/**
 * Response schemas of the validator routes (packages/api/src/routes/validators.ts), from the
 * spec's tables and the validators job (packages/ingester/src/validators/registry.ts).
 */

const ValidatorKey = { ...NodePublicKey, description: 'Validator master public key (base58, nH...).' };
const SigningKey = { ...NodePublicKey, description: 'Ephemeral (signing) public key (base58, n9...).' };

/** agreed / total with five decimals. */
const Score = Type.String({
  pattern: '^[01]\\.[0-9]{5}$',
  description: 'Agreed / total, five decimals ("0.00000" to "1.00000").',
});

/** The spec's agreement object. */
export const Agreement = OpenObject(
  {
    missed: Type.Integer({ minimum: 0, description: 'Validated ledgers of the period it did not validate.' }),
    total: Type.Integer({ minimum: 0, description: 'Validated ledgers of the period (0 when none is indexed).' }),
    score: Score,
    incomplete: Type.Boolean({
      description:
        'The period is not fully observed (no indexed ledger in it, gaps, or validations not collected since it began).',
    }),
  },
  'Agreement with the validated ledgers over one period.',
);

/** The decoded server version of a validator's newest validation. */
export const ValidatorServerVersion = OpenObject(
  {
    implementation: Type.String({ description: '`rippled`, or the implementation id in hex.' }),
    major: Type.Integer(),
    minor: Type.Integer(),
    patch: Type.Integer(),
    version: Type.String({ description: 'e.g. `2.3.0` or `2.4.0-rc1`.' }),
    version_full: Type.String({ description: 'e.g. `rippled-2.3.0`.' }),
  },
  'Server version, decoded from the ServerVersion field of its newest validation.',
);

/** The spec's Validator registry entry. */
export const ValidatorRegistryEntry = OpenObject(
  {
    master_key: ValidatorKey,
    ephemeral_key: Nullable(
      SigningKey,
      'Ephemeral signing key; null when neither a manifest nor a validation names one.',
    ),
    chain: Type.String({ description: '`main` or `test`.' }),
    last_seen: Nullable(IsoDate, 'Signing time of its newest validation (ISO 8601); null when none was collected.'),
    ledger_index: Nullable(Type.Integer(), 'Ledger of its newest validation; null when none was collected.'),
    meta: Nullable(
      OpenObject(
        {
          manifest: Type.String({ description: 'Its newest verified manifest, base64.' }),
          verified: Type.Boolean({ description: 'Both manifest signatures verified.' }),
          verification_message: Type.String({ description: 'Outcome of the verification.' }),
        },
        'Its manifest.',
      ),
      'Its manifest; null when no verified manifest is known.',
    ),
    server_version: Nullable(ValidatorServerVersion, 'Its server version; null when no validation was collected.'),
    votes: OpenObject(
      {
        amendments: Type.Array(Hash, {
          description: 'Amendment ids its newest validation votes for (empty when none was collected).',
        }),
      },
      'Its votes.',
    ),
    domain: Nullable(Type.String(), 'Domain its manifest claims; null when the manifest names none.'),
    domain_legacy: Type.Null({ description: 'Always null: the retired verification scheme is not collected.' }),
    unl: Type.Array(Type.String(), { description: 'Names of the validator lists it is on (e.g. `vl.ripple.com`).' }),
  },
  'An active validator.',
);

/** GET /validatorregistry. */
export const ValidatorRegistry = Type.Array(ValidatorRegistryEntry, {
  description: 'Active validators: on the verified UNL, or seen validating in the last 24 hours.',
});

/** GET /validator/{VALIDATOR_PUBLIC_KEY}: the spec's Validator info. */
export const ValidatorInfo = OpenObject(
  {
    validation_public_key: ValidatorKey,
    signing_key: Nullable(
      SigningKey,
      'Ephemeral signing key; null when neither a manifest nor a validation names one.',
    ),
    master_key: ValidatorKey,
    domain: Nullable(Type.String(), 'Domain its manifest claims; null when the manifest names none.'),
    chain: Type.String({ description: '`main` or `test`.' }),
    server_version: Nullable(
      Type.String({ description: 'e.g. `2.3.0`.' }),
      'Server version of its newest validation; null when no validation was collected.',
    ),
    networks: Type.String({ description: 'Network it validates (`main` or `test`).' }),
    current_index: Nullable(Type.Integer(), 'Ledger of its newest validation; null when none was collected.'),
    agreement_1h: Agreement,
    agreement_24h: Agreement,
    agreement_30day: Agreement,
    partial: Type.Boolean({ description: 'Its newest validation is partial.' }),
    unl: Type.String({ description: 'Validator lists it is on, comma-separated; empty when on none.' }),
    revoked: Type.Boolean({ description: 'Its master key is revoked.' }),
    result: Type.Literal('success'),
  },
  'One validator with its agreement over 1 h, 24 h and 30 days.',
);

/** One entry of the spec's Validator report. */
export const ValidatorReport = OpenObject(
  {
    validation_public_key: ValidatorKey,
    date: { ...IsoDate, description: 'The UTC day (midnight, ISO 8601).' },
    chain: Type.String({ description: '`main` or `test`.' }),
    score: Score,
    total: Type.String({ pattern: '^[0-9]+$', description: 'Validated ledgers of the day (decimal text).' }),
    missed: Type.String({ pattern: '^[0-9]+$', description: 'Of those, the ones it did not validate (decimal text).' }),
    incomplete: Type.Boolean({ description: 'The day is not fully observed.' }),
  },
  'Agreement of one validator on one day.',
);

/** GET /validator/{PUBLIC_KEY}/reports: the spec's Validator report envelope. */
export const ValidatorReports = OpenObject(
  {
    result: Type.Literal('success'),
    count: Type.Integer({ minimum: 0, description: 'Number of reports.' }),
    reports: Type.Array(ValidatorReport, { description: 'Daily reports, newest day first.' }),
  },
  'Daily agreement reports of one validator.',
);
