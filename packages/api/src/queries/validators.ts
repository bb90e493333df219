import type { estypes } from '@elastic/elasticsearch';

/** Active validators, by master key (pure). */
export function buildActiveValidatorsQuery(): estypes.SearchRequest {
  return { query: { term: { active: true } }, sort: [{ master_key: 'asc' }], size: 10_000 };
}

/** A validator by the ephemeral key it signs with (pure). */
export function buildValidatorBySigningKeyQuery(key: string): estypes.SearchRequest {
  return {
    query: { bool: { should: [{ term: { signing_key: key } }, { term: { ephemeral_key: key } }] } },
    sort: [{ master_key: 'asc' }],
    size: 1,
  };
}
