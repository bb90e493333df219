import { h } from 'preact';
import { renderToString } from 'preact-render-to-string';
import t from 'tap';
import { balanceChanges } from '../../src/model/balance-changes.js';
import { ErrorPage } from '../../src/views/error.js';
import { renderPage, type SiteChrome } from '../../src/views/layout.js';
import { TransactionPage } from '../../src/views/transaction.js';
import { PriceFigure, TokenValue } from '../../src/views/parts.js';
import { TxTable } from '../../src/views/tx-table.js';
import { fixtureTx } from '../fixtures/site.js';

const chrome: SiteChrome = {
  network: 'mainnet',
  stylesheet: '/assets/site.0123456789ab.css',
  icon: '/assets/icon.0123456789ab.svg',
};
const XRDOGE = '5852646F67650000000000000000000000000000.rLqUC2eCPohYvJCEBJ77eCCqVL2uEiczjA';

t.test('a transaction page: summary, facts, balance changes and raw JSON, every id linked', async (t) => {
  const tx = { ...fixtureTx('AABF5991C454'), ledger_index: 70000000, date: '2022-01-30T10:00:00.000Z' };
  const html = renderPage(
    h(TransactionPage, {
      chrome,
      props: {
        tx,
        changes: balanceChanges((tx as { meta?: unknown }).meta),
        ctx: {
          names: new Map<string, string>(),
          tokens: new Set([XRDOGE]),
          txs: new Set<string>(),
          unknownAccounts: new Set<string>(),
        },
      },
    }),
  );
  t.match(html, /^<!doctype html>\n<html lang="en">/);
  t.match(html, '<link rel="stylesheet" href="/assets/site.0123456789ab.css"/>');
  t.match(html, '<title>Transaction AABF5991C454');
  // The summary links the sender, the destination, the token and its issuer.
  t.match(
    html,
    '<a class="account" href="/account/r3RaNVLvWjqqtFAawC6jbRhgKyFH7HvRS8" title="r3RaNVLvWjqqtFAawC6jbRhgKyFH7HvRS8">',
  );
  t.match(
    html,
    '<a class="account" href="/account/rprcTynT68nYdKzDTefAZG9HjSHiYcnP4b" title="rprcTynT68nYdKzDTefAZG9HjSHiYcnP4b">',
  );
  t.match(html, '<a href="/token/XRdoge.rLqUC2eCPohYvJCEBJ77eCCqVL2uEiczjA">XRdoge</a>');
  t.match(html, '<span class="result ok">tesSUCCESS</span>');
  t.match(html, '<a href="/ledger/70000000">70,000,000</a>');
  t.match(html, '<td data-label="Change" class="num positive">+17,366,599.150289</td>');
  t.match(html, '<details class="raw"><summary>The raw transaction with its metadata (JSON)</summary>');
  t.notMatch(html, /<script/i, 'no script at all');
});

t.test('a token without a page is not linked; text is escaped', async (t) => {
  const tx = {
    ...fixtureTx('A357FD7C8F0B'),
    Memos: [{ Memo: { MemoData: Buffer.from('<script>alert(1)</script>').toString('hex') } }],
    ledger_index: 57894770,
    date: '2020-08-01T00:00:00.000Z',
  };
  const html = renderPage(
    h(TransactionPage, {
      chrome,
      props: {
        tx,
        changes: [],
        ctx: {
          names: new Map<string, string>(),
          tokens: new Set<string>(),
          txs: new Set<string>(),
          unknownAccounts: new Set<string>(),
        },
      },
    }),
  );
  t.notMatch(html, 'href="/token/');
  // A token without a page: its code, and its issuer linked in brackets by its shortened address.
  t.match(
    html,
    '<span>EUR</span><span class="issuer"> (<a href="/account/rhub8VRN55s94qWKDv6jmDy1pUykJzF3wq" title="Issued by rhub8VRN55s94qWKDv6jmDy1pUykJzF3wq"><span class="mono">rhub8…zF3wq</span></a>)</span>',
  );
  t.match(html, '&lt;script>alert(1)&lt;/script>');
  t.notMatch(html, '<script>');
  t.match(html, 'No balance changed.');
});

t.test('account labels show beside the address', async (t) => {
  const tx = { ...fixtureTx('F4AD54E6FE56'), date: '2018-03-23T13:34:51.000Z' };
  const html = renderPage(
    h(TxTable, {
      caption: 'Transactions',
      transactions: [tx],
      ctx: {
        names: new Map([['rNQEMJA4PsoSrZRn9J6RajAYhcDzzhf8ok', 'Some Exchange']]),
        tokens: new Set<string>(),
        txs: new Set<string>(),
        unknownAccounts: new Set(['rHoPwMC75KVUhBMeV3uDMybKG5JND74teh']),
      },
    }),
  );
  t.match(
    html,
    '<span class="label">Some Exchange </span><span class="mono address"><span class="address-full">rNQEMJA4PsoSrZRn9J6RajAYhcDzzhf8ok</span><span class="address-short" title="rNQEMJA4PsoSrZRn9J6RajAYhcDzzhf8ok">rNQEM…hf8ok</span></span>',
  );
  t.match(html, '<td class="num" data-label="Fee (XRP)">0.15</td>');
  t.match(html, '<a href="/ledger/37432866">37,432,866</a>');
  // An address the indexed data does not know is shown, not linked.
  t.match(
    html,
    '<span class="account" title="Not in the indexed ledgers"><span class="mono address"><span class="address-full">rHoPwMC75KVUhBMeV3uDMybKG5JND74teh</span>',
  );
  t.match(html, '<a class="mono" href="/tx/F4AD54E6FE56B53F8FB8B422C4E9636D6AD56682EA45FF3C8AFBC66EF2D82612"');
});

t.test('error pages in the site look, saying what went wrong', async (t) => {
  const html = renderPage(
    h(ErrorPage, {
      chrome: { ...chrome, network: 'testnet' },
      props: { status: 404, heading: 'Not found', message: 'Transaction X is not indexed.' },
    }),
  );
  t.match(html, '<title>Not found · XRPL Explorer (testnet)</title>');
  t.match(html, '<span class="network testnet">testnet</span>');
  t.match(html, '<h1>Not found</h1><p>Transaction X is not indexed.</p>');
  t.match(html, '<form class="search" action="/search" method="get" role="search">');
});

t.test('a token without a price says so; a token value keeps its exact value in the title', async (t) => {
  // The data set's price_source says whether a price is known; its 0 alone says nothing.
  t.equal(renderToString(h(PriceFigure, { value: 0, source: null })), '<span class="muted">no price</span>');
  t.equal(renderToString(h(PriceFigure, { value: undefined, source: 'amm' })), '<span class="muted">no price</span>');
  t.equal(renderToString(h(PriceFigure, { value: '0.5', source: 'amm', suffix: ' XRP' })), '<span>0.5 XRP</span>');
  t.equal(renderToString(h(PriceFigure, { value: 0, source: 'last_trade' })), '<span>0</span>', 'a known price of 0');
  t.equal(
    renderToString(h(TokenValue, { value: '4000.000000000001' })),
    '<span title="4,000.000000000001">4,000</span>',
  );
  t.equal(renderToString(h(TokenValue, { value: '12.5', signed: true })), '+12.5');
});
