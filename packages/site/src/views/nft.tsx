import { parseNFTokenID } from 'xrpl';
import { decodeHexText, parseNftFlags, type Json } from '@xle/documents';
import { formatValue } from '../model/format.js';
import { Layout, type SiteChrome } from './layout.js';
import { AccountLink, Facts, RawJson, Section, type LinkContext } from './parts.js';
import { TxTable } from './tx-table.js';

export interface NftProps {
  id: string;
  /** GET /nft/{NFTOKEN_ID}; undefined when it is on no indexed page and has no indexed burn. */
  nft?: Json | undefined;
  /** Its indexed transactions, newest first. */
  history: readonly Json[];
  ctx: LinkContext;
}

/** `/nft/{NFTOKEN_ID}`: what the id itself says (XLS-20), its state, and its history. */
export function NftPage({ chrome, props }: { chrome: SiteChrome; props: NftProps }) {
  const { nft, ctx } = props;
  // The id encodes flags, transfer fee, issuer, taxon and serial (XLS-20): known even without its page.
  const parsed = parseNFTokenID(props.id);
  const uri = typeof nft?.uri === 'string' && nft.uri !== '' ? nft.uri : undefined;
  const uriText = uri === undefined ? undefined : decodeHexText(uri);
  return (
    <Layout chrome={chrome} title={`NFT ${props.id}`}>
      <h1>
        <span class="kicker">NFT</span>
        <span class="mono">{props.id}</span>
      </h1>
      {nft === undefined ? (
        <p class="notice">
          No indexed NFToken page holds this NFT and no indexed transaction burned it: its owner is not known from the
          indexed ledgers. What its id says and its indexed transactions are below.
        </p>
      ) : null}
      <Facts
        items={[
          nft !== undefined && [
            'Owner',
            nft.is_burned === true ? (
              <>
                burned (last held by <AccountLink address={String(nft.owner)} ctx={ctx} />)
              </>
            ) : (
              <AccountLink address={String(nft.owner)} ctx={ctx} />
            ),
          ],
          ['Issuer', <AccountLink address={parsed.Issuer} ctx={ctx} />],
          ['Taxon', String(parsed.Taxon)],
          ['Serial', String(parsed.Sequence)],
          ['Flags', parseNftFlags(parsed.Flags).join(', ') || 'none'],
          ['Transfer fee', `${formatValue(parsed.TransferFee / 1000)} %`],
          uri !== undefined && [
            'URI',
            uriText === undefined ? <span class="mono">{uri}</span> : <span class="mono">{uriText}</span>,
          ],
        ]}
      />
      <Section
        id="history"
        title={`History (${props.history.length} transaction${props.history.length === 1 ? '' : 's'})`}
      >
        <TxTable caption="Transactions of the NFT" transactions={props.history} ctx={ctx} />
      </Section>
      {nft === undefined ? null : <RawJson value={nft} label="The raw NFT record (JSON)" />}
    </Layout>
  );
}
