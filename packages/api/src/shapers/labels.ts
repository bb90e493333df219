import type { Json } from '@xle/documents';

/** The spec's label object (`accountName`, `parentName`, `AccountName`, ...). */
export interface Label {
  name?: string;
  username?: string;
  desc?: string;
  account: string;
  domain?: string;
  twitter?: string;
  verified?: boolean;
}

export type Labels = ReadonlyMap<string, Label>;

export const LABEL_FIELDS = ['name', 'username', 'desc', 'domain', 'twitter', 'verified'] as const;

/** A names-index record as the label object (pure). */
export function toLabel(account: string, doc: Json): Label {
  const label: Label = { account };
  for (const key of LABEL_FIELDS) {
    if (doc[key] !== undefined) (label as unknown as Json)[key] = doc[key];
  }
  return label;
}

/** The label of an address, or null (pure). */
export function labelOf(labels: Labels, address: unknown): Label | null {
  return typeof address === 'string' ? (labels.get(address) ?? null) : null;
}
