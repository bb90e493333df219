import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/** Issuers of the fixture ledgers whose domains the test toml folder serves. */
export const TOML_FIXTURE = {
  /** ripplefox.com: a well-formed XLS-26 file listing its issuer and CNY token. */
  listed: { domain: 'ripplefox.com', issuer: 'rKiCet8SdvWxPXnAgYarFUXMh1zCPz432Y', code: 'CNY' },
  /** snapswap.vc: a file that is not TOML. */
  malformed: { domain: 'snapswap.vc' },
} as const;

/**
 * A folder of `<domain>.toml` files for the tokens job (`TOML_DIR`): one well-formed XLS-26 file
 * in the standard's layout, naming a real fixture issuer and its token, and one malformed file.
 * Every other issuer domain of the fixtures has no file (not_found).
 */
export function makeTomlDir(): string {
  const dir = mkdtempSync(join(tmpdir(), 'xle-toml-'));
  const { listed, malformed } = TOML_FIXTURE;
  writeFileSync(
    join(dir, `${listed.domain}.toml`),
    [
      '[METADATA]',
      'modified = 2024-05-01T00:00:00Z',
      '',
      '[[ISSUERS]]',
      `address = "${listed.issuer}"`,
      'name = "Ripple Fox"',
      'desc = "Gateway in China"',
      '',
      '[[TOKENS]]',
      `issuer = "${listed.issuer}"`,
      `currency = "${listed.code}"`,
      'name = "Ripple Fox CNY"',
      'desc = "Chinese yuan issued by Ripple Fox"',
      'icon = "https://ripplefox.com/cny.png"',
      '',
      '[[TOKENS.URLS]]',
      'url = "https://ripplefox.com"',
      'type = "website"',
      'title = "Ripple Fox"',
      '',
    ].join('\n'),
  );
  writeFileSync(join(dir, `${malformed.domain}.toml`), '[[TOKENS]\nissuer = "unterminated\n');
  return dir;
}
