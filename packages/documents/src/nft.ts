import { encodeAccountID } from 'xrpl';

/** NFToken flags (XLS-20), by bit. */
const NFT_FLAGS: [number, string][] = [
  [0x0001, 'tfBurnable'],
  [0x0002, 'tfOnlyXRP'],
  [0x0004, 'tfTrustLine'],
  [0x0008, 'tfTransferable'],
  [0x0010, 'tfMutable'],
];

/** The names of the flags set in an NFToken's flags (pure). */
export function parseNftFlags(flags: number): string[] {
  return NFT_FLAGS.filter(([bit]) => (flags & bit) !== 0).map(([, name]) => name);
}

/** An NFTokenPage's id starts with its owner's 160-bit AccountID (XLS-20). */
export function pageOwner(pageIndex: string): string {
  return encodeAccountID(Buffer.from(pageIndex.slice(0, 40), 'hex'));
}

/** The NFToken ids listed in one side (NewFields, FinalFields or PreviousFields) of an NFTokenPage node. */
function pageTokenIds(fields: unknown): string[] | undefined {
  if (typeof fields !== 'object' || fields === null) return undefined;
  const tokens = (fields as { NFTokens?: unknown }).NFTokens;
  if (!Array.isArray(tokens)) return undefined;
  return tokens.flatMap((entry: unknown) => {
    const id = (entry as { NFToken?: { NFTokenID?: unknown } } | null)?.NFToken?.NFTokenID;
    return typeof id === 'string' ? [id.toUpperCase()] : [];
  });
}

/**
 * The NFTs a transaction put on pages (`added`: minted) and took off every page (`removed`:
 * burned), read from the NFTokenPage nodes of its metadata (XLS-20). A transfer or a page split
 * moves a token between pages and is neither: the comparison is over all pages of the transaction.
 * rippled 1.11 and later also report a mint's id as `meta.nftoken_id`; older metadata only has the
 * pages (pure).
 */
export function nftPageChanges(meta: unknown): { added: string[]; removed: string[] } {
  const before = new Set<string>();
  const after = new Set<string>();
  const nodes = (meta as { AffectedNodes?: unknown } | null)?.AffectedNodes;
  for (const wrapper of Array.isArray(nodes) ? nodes : []) {
    if (typeof wrapper !== 'object' || wrapper === null) continue;
    for (const [kind, node] of Object.entries(wrapper as Record<string, unknown>)) {
      const inner = node as {
        LedgerEntryType?: unknown;
        NewFields?: unknown;
        FinalFields?: unknown;
        PreviousFields?: unknown;
      };
      if (inner?.LedgerEntryType !== 'NFTokenPage') continue;
      const final = pageTokenIds(inner.FinalFields);
      // PreviousFields lists NFTokens only when the list changed; otherwise it is the final list.
      const previous = pageTokenIds(inner.PreviousFields) ?? final;
      if (kind === 'CreatedNode') for (const id of pageTokenIds(inner.NewFields) ?? []) after.add(id);
      if (kind === 'ModifiedNode') {
        for (const id of previous ?? []) before.add(id);
        for (const id of final ?? []) after.add(id);
      }
      if (kind === 'DeletedNode') for (const id of previous ?? []) before.add(id);
    }
  }
  return {
    added: [...after].filter((id) => !before.has(id)),
    removed: [...before].filter((id) => !after.has(id)),
  };
}
