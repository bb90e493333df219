import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { pathToFileURL } from 'node:url';
import t from 'tap';
import { repoRoot } from '@xle/core';

/**
 * Every relative link of the README and the docs leads somewhere: the file exists, and an anchor
 * (`page.md#heading`, `#heading`) names a heading of that page, by GitHub's rule for heading ids
 * (lower case, punctuation dropped, spaces as hyphens, a repeated heading numbered -1, -2 ...).
 */
const pages = [
  'README.md',
  'index-templates/README.md',
  ...readdirSync(join(repoRoot, 'docs'))
    .filter((f) => f.endsWith('.md'))
    .map((f) => `docs/${f}`),
];

/** The ids GitHub gives a page's headings (outside fenced code). */
export function headingIds(markdown: string): Set<string> {
  const ids = new Set<string>();
  const seen = new Map<string, number>();
  let fenced = false;
  for (const line of markdown.split('\n')) {
    if (line.startsWith('```')) fenced = !fenced;
    const heading = fenced ? null : /^#{1,6} (.*)$/.exec(line);
    if (heading === null) continue;
    const base = (heading[1] as string)
      .toLowerCase()
      .replace(/`/g, '')
      .replace(/[^\p{L}\p{N} _-]/gu, '')
      .replace(/ /g, '-');
    const n = seen.get(base) ?? 0;
    seen.set(base, n + 1);
    ids.add(n === 0 ? base : `${base}-${n}`);
  }
  return ids;
}

/** The relative links of a page (outside fenced code): `[text](target)`. */
function linksOf(markdown: string): string[] {
  const links: string[] = [];
  let fenced = false;
  for (const line of markdown.split('\n')) {
    if (line.startsWith('```')) fenced = !fenced;
    if (fenced) continue;
    for (const m of line.matchAll(/\]\(([^)\s]+)\)/g)) {
      const target = m[1] as string;
      if (!/^[a-z]+:/i.test(target)) links.push(target);
    }
  }
  return links;
}

t.test('every relative link and anchor of the README and the docs resolves', async (t) => {
  t.ok(pages.length >= 13, `${pages.length} pages`);
  let checked = 0;
  const broken: string[] = [];
  for (const page of pages) {
    const text = readFileSync(join(repoRoot, page), 'utf8');
    for (const link of linksOf(text)) {
      const [path, anchor] = link.split('#') as [string, string | undefined];
      const target = path === '' ? join(repoRoot, page) : join(repoRoot, dirname(page), path);
      checked += 1;
      if (!existsSync(target)) {
        broken.push(`${page}: ${link} (no ${relative(repoRoot, target)})`);
        continue;
      }
      if (anchor !== undefined && target.endsWith('.md') && !headingIds(readFileSync(target, 'utf8')).has(anchor))
        broken.push(`${page}: ${link} (no heading #${anchor} in ${relative(repoRoot, target)})`);
    }
  }
  t.same(broken, [], `${checked} links checked`);
  t.ok(checked >= 20, 'the pages link to each other');
});

t.test('heading ids follow GitHub', async (t) => {
  t.same(
    [...headingIds('# A b\n## Access: plans, API keys and pay-as-you-go\n## A b\n```\n# not one\n```')],
    ['a-b', 'access-plans-api-keys-and-pay-as-you-go', 'a-b-1'],
  );
});

t.test('the README is an entry, not a manual', async (t) => {
  const readme = readFileSync(join(repoRoot, 'README.md'), 'utf8').split('\n');
  t.ok(readme.length <= 200, `${readme.length} lines`);
  t.same(
    readme.filter((line) => line.length > 100),
    [],
    'no line past 100 characters',
  );
});

t.test('docs/architecture.md draws the package arrows lint/architecture.js declares', async (t) => {
  const { PACKAGE_ARROWS } = (await import(pathToFileURL(join(repoRoot, 'lint/architecture.js')).href)) as {
    PACKAGE_ARROWS: Record<string, string[]>;
  };
  const page = readFileSync(join(repoRoot, 'docs/architecture.md'), 'utf8');
  const diagram = /```mermaid\n([\s\S]*?)```/.exec(page)?.[1] ?? '';
  const drawn = [...diagram.matchAll(/^\s*(\w+) --> (\w+)\s*$/gm)].map((m) => `${m[1]} -> ${m[2]}`).sort();
  const declared = Object.entries(PACKAGE_ARROWS)
    .flatMap(([from, to]) => to.map((target) => `${from} -> ${target}`))
    .sort();
  t.ok(declared.length > 10, `${declared.length} arrows`);
  t.same(drawn, declared, 'the diagram is the lint rule');
});
