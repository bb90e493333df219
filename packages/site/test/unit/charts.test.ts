import t from 'tap';
import { renderToString } from 'preact-render-to-string';
import { DailyBars, DailyLine, HorizontalBars, StackedDailyBars, type DayValues } from '../../src/views/charts.js';

const days = [
  { date: '2015-01-14T00:00:00.000Z', value: 761 },
  { date: '2015-01-15T00:00:00.000Z', value: 30 },
  { date: '2025-02-12T00:00:00.000Z', value: 83 },
];

t.test('bars: an image with a title, a description in words, and labelled axes', async (t) => {
  const svg = renderToString(
    DailyBars({ id: 'c', title: 'Transactions per day', unit: 'transactions', points: days })!,
  );
  t.match(svg, '<svg class="chart" viewBox="0 0 480 220" role="img" aria-labelledby="c-title c-desc"');
  t.match(svg, '<title id="c-title">Transactions per day</title>');
  t.match(
    svg,
    '<desc id="c-desc">3 days from 2015-01-14 to 2025-02-12. Highest: 761 transactions on 2015-01-14. Latest: 83 transactions on 2025-02-12.</desc>',
  );
  t.equal(svg.match(/<rect class="bar c0"/g)?.length, 3, 'one bar per day');
  t.match(svg, /text-anchor="end">800<\/text>/, 'a y tick label');
  t.notMatch(svg, /\d\.\d{3,}/, 'coordinates rounded');
  // Three days over ten years: drawn side by side (not hairlines on a ten-year axis), the gap
  // between the second and the third marked on the axis, each day labelled by its date.
  const widths = [...svg.matchAll(/<rect class="bar c0"[^>]* width="([\d.]+)"/g)].map((m) => Number(m[1]));
  t.ok(
    widths.every((w) => w >= 20),
    `bars drawn wide (${widths.join(', ')})`,
  );
  t.equal(svg.match(/class="axis-break"/g)?.length, 1, 'one break: between 2015-01-15 and 2025-02-12');
  for (const date of ['2015-01-14', '2015-01-15', '2025-02-12']) t.match(svg, `>${date}</text>`, date);
});

t.test('days close together keep the calendar axis', async (t) => {
  const month = Array.from({ length: 20 }, (_, i) => ({
    date: new Date(Date.UTC(2025, 0, 1 + i * 2)).toISOString(),
    value: i,
  }));
  const svg = renderToString(DailyBars({ id: 'm', title: 'Every other day', unit: 'x', points: month })!);
  t.notMatch(svg, 'axis-break', 'no break');
  t.match(svg, /text-anchor="middle">[A-Z][a-z]{2} \d\d<\/text>|text-anchor="middle">\w+<\/text>/, 'calendar ticks');
});

t.test('no data is said in words, not drawn', async (t) => {
  t.equal(
    renderToString(DailyBars({ id: 'c', title: 'Accounts created per day', unit: 'accounts', points: [] })!),
    '<p class="muted">Accounts created per day: No days recorded yet.</p>',
  );
});

t.test('stacked bars: the largest categories each in a colour, the rest as "other"', async (t) => {
  const points: DayValues[] = [
    {
      date: '2015-01-14T00:00:00.000Z',
      values: { OfferCreate: 454, OfferCancel: 156, Payment: 149, AccountSet: 1, TrustSet: 1, A: 1, B: 1 },
    },
    { date: '2025-02-12T00:00:00.000Z', values: { OfferCreate: 47, Payment: 18, TrustSet: 12 } },
  ];
  const svg = renderToString(StackedDailyBars({ id: 's', title: 'By type', unit: 'transactions', points })!);
  t.match(svg, 'Largest: OfferCreate, Payment, OfferCancel, TrustSet, A.');
  t.match(svg, '<li><span class="swatch c5" aria-hidden="true"></span>other</li>');
  t.equal(svg.match(/<g class="c\d">/g)?.length, 6);
});

t.test('a line breaks where days are missing', async (t) => {
  const svg = renderToString(
    DailyLine({
      id: 'l',
      title: 'Daily agreement',
      unit: 'agreement',
      points: days.map((d) => ({ ...d, value: d.value / 1000 })),
      domain: [0, 1],
    })!,
  );
  // Two consecutive days joined, the day ten years later on its own: two sub-paths.
  const path = /<path class="line c0" d="([^"]*)"/.exec(svg)?.[1] ?? '';
  t.equal(path.match(/M/g)?.length, 2);
  t.equal(svg.match(/<circle/g)?.length, 3);
});

t.test('horizontal bars of shares', async (t) => {
  const svg = renderToString(
    HorizontalBars({
      id: 'h',
      title: 'Shares',
      bars: [{ label: 'rHolder', value: 0.5 }],
      format: (v) => `${v * 100} %`,
      max: 1,
    })!,
  );
  t.match(svg, '<desc id="h-desc">rHolder: 50 %</desc>');
});
