import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import openapiTS, { astToString } from 'openapi-typescript';
import t from 'tap';
import ts from 'typescript';
import { getJson, loadedIndices, serve } from '../fixtures/serve.js';

/**
 * The document drives code generation: openapi-typescript turns the served /openapi.json into
 * types, and a client written against them compiles only if the answers are typed (a wrong use
 * must fail to compile, so `unknown` everywhere would not pass).
 */
const target = await loadedIndices(t);
const base = await serve(t, target);
const doc = (await getJson(`${base}/openapi.json`)).body;

const dir = mkdtempSync(join(tmpdir(), 'xle-client-'));
writeFileSync(join(dir, 'api.ts'), astToString(await openapiTS(doc as never)));

type Get<P extends string> = `paths['${P}']['get']['responses'][200]['content']['application/json']`;
const answer = <P extends string>(path: P): Get<P> =>
  `paths['${path}']['get']['responses'][200]['content']['application/json']`;

function compile(source: string): string[] {
  writeFileSync(join(dir, 'client.ts'), `import type { paths } from './api.js';\n${source}\n`);
  const program = ts.createProgram([join(dir, 'client.ts')], {
    strict: true,
    noEmit: true,
    module: ts.ModuleKind.NodeNext,
    moduleResolution: ts.ModuleResolutionKind.NodeNext,
    target: ts.ScriptTarget.ES2022,
    skipLibCheck: true,
  });
  return ts.getPreEmitDiagnostics(program).map((d) => ts.flattenDiagnosticMessageText(d.messageText, '\n'));
}

t.test('typed answers: a client reads their fields with their types', async (t) => {
  const errors = compile(`
type Ledger = ${answer('/api/v1/ledger/{LEDGER_INDEX}')};
type Tx = ${answer('/api/v1/tx/{HASH}')};
type Page = ${answer('/api/v1/account/{ACCOUNT}/transactions')};
type Info = ${answer('/api/v1/account/{ACCOUNT}')};
type Tokens = ${answer('/api/v1/tokens')};
declare const ledger: Ledger;
declare const tx: Tx;
declare const page: Page;
declare const info: Info;
declare const tokens: Tokens;
const hash: string = ledger.ledger_hash;
const coins: number = ledger.total_coins;
const type: string = tx.TransactionType;
const signer: string | null = tx.SigningPubKeyAccount;
const first: Tx | undefined = page.transactions[0];
const sequence: number = info.Sequence;
const label: string | undefined = info.accountName?.name;
const count: number = tokens.length;
export { hash, coins, type, signer, first, sequence, label, count };
`);
  t.same(errors, [], 'compiles against the generated types');
});

t.test('a wrong use fails to compile', async (t) => {
  const errors = compile(`
declare const ledger: ${answer('/api/v1/ledger/{LEDGER_INDEX}')};
const index: string = ledger.ledger_index;
declare const tx: ${answer('/api/v1/tx/{HASH}')};
const signer: string = tx.SigningPubKeyAccount;
export { index, signer };
`);
  t.ok(
    errors.some((e) => /'number' is not assignable to type 'string'/.test(e)),
    'a number is not a string',
  );
  t.ok(
    errors.some((e) => /'string \| null' is not assignable to type 'string'/.test(e)),
    'a nullable field must be checked for null',
  );
});
