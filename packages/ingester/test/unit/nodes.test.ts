import t from 'tap';
import type { Json } from '@xle/documents';
import { readFixture } from '@xle/test-helpers';
import { crawlTime, parseCrawl } from '../../src/index.js';

const crawl = readFixture<Json>('rpc/xrpl-dev-portal/peer-crawler.crawl.json');
const fetched = new Date('2026-11-27T08:00:00.000Z');

t.test("a crawl's nodes are seen when the crawled server made its answer", async (t) => {
  const nodes = parseCrawl(crawl, fetched);
  t.equal(nodes.length, 11, 'the server and its 10 active peers');
  for (const node of nodes)
    t.match(node, {
      last_seen: '2019-03-02T01:48:50.000Z',
      last_seen_unix: Date.UTC(2019, 2, 2, 1, 48, 50) / 1000,
      crawled_at: fetched.toISOString(),
    });
});

t.test('the fetch time when the server says no time, or a time ahead of the fetch', async (t) => {
  const server = crawl.server as Json;
  const { time: _time, ...timeless } = server;
  t.same(crawlTime({ ...crawl, server: timeless }, fetched), fetched, 'no time');
  t.same(crawlTime({ ...crawl, server: { ...server, time: 'garbage' } }, fetched), fetched, 'unreadable');
  t.same(
    crawlTime({ ...crawl, server: { ...server, time: '2026-Nov-27 09:00:00.000000' } }, fetched),
    fetched,
    'an hour ahead',
  );
  t.same(
    crawlTime({ ...crawl, server: { ...server, time: '2026-Nov-27 08:04:00.123456' } }, fetched),
    new Date('2026-11-27T08:04:00.000Z'),
    'a few minutes ahead: its clock is believed',
  );
});
