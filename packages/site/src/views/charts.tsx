import type { ComponentChildren } from 'preact';
import { scaleBand, scaleLinear, scaleUtc } from 'd3-scale';
import { line, stack } from 'd3-shape';
import { formatCount, formatValue } from '../model/format.js';

/**
 * Charts drawn on the server as inline SVG: d3-scale for the axes and d3-shape for lines and
 * stacks, pure functions with no DOM. Each chart is an image with a title and a description that
 * says in words what it shows (range, highest and latest values), and readable axis labels.
 */

const WIDTH = 480;
const HEIGHT = 220;
const MARGIN = { top: 12, right: 12, bottom: 30, left: 56 };
const DAY_MS = 86_400_000;
/** Categories drawn in their own colour before the rest is summed as "other". */
export const MAX_SERIES = 6;

export interface DayValue {
  /** The day, ISO 8601 (midnight UTC). */
  date: string;
  value: number;
}

export interface DayValues {
  date: string;
  values: Readonly<Record<string, number>>;
}

const day = (iso: string): string => iso.slice(0, 10);
/** Coordinates to a hundredth of a unit: enough on any screen, and short markup. */
const px = (value: number | undefined): number => Math.round((value ?? 0) * 100) / 100;
const compact = (value: number): string =>
  Math.abs(value) >= 1e6
    ? `${formatValue((value / 1e6).toFixed(1))}M`
    : Math.abs(value) >= 1e4
      ? `${formatValue((value / 1e3).toFixed(0))}k`
      : formatValue(Number(value.toFixed(3)));

function describe(points: readonly DayValue[], unit: string): string {
  if (points.length === 0) return `No days recorded yet.`;
  const first = points[0] as DayValue;
  const last = points[points.length - 1] as DayValue;
  const top = points.reduce((a, b) => (b.value > a.value ? b : a));
  const days =
    points.length === 1
      ? `1 day, ${day(first.date)}`
      : `${points.length} days from ${day(first.date)} to ${day(last.date)}`;
  return `${days}. Highest: ${formatCount(top.value)} ${unit} on ${day(top.date)}. Latest: ${formatCount(last.value)} ${unit} on ${day(last.date)}.`;
}

interface Frame {
  id: string;
  title: string;
  description: string;
  /** The drawing's height in its own units (default HEIGHT). */
  height?: number;
  children: ComponentChildren;
}

function Svg({ id, title, description, height = HEIGHT, children }: Frame) {
  return (
    <svg
      class="chart"
      viewBox={`0 0 ${WIDTH} ${height}`}
      role="img"
      aria-labelledby={`${id}-title ${id}-desc`}
      xmlns="http://www.w3.org/2000/svg"
    >
      <title id={`${id}-title`}>{title}</title>
      <desc id={`${id}-desc`}>{description}</desc>
      {children}
    </svg>
  );
}

/** The y axis: grid lines and labels of a linear scale. */
function YAxis({
  y,
  format = compact,
}: {
  y: ReturnType<typeof scaleLinear<number, number>>;
  format?: (v: number) => string;
}) {
  return (
    <g class="axis y">
      {y.ticks(4).map((tick) => (
        <g>
          <line class="grid" x1={px(MARGIN.left)} x2={px(WIDTH - MARGIN.right)} y1={px(y(tick))} y2={px(y(tick))} />
          <text x={px(MARGIN.left - 6)} y={px(y(tick))} dy="0.32em" text-anchor="end">
            {format(tick)}
          </text>
        </g>
      ))}
    </g>
  );
}

/** The time axis: about five dated ticks. */
function TimeAxis({ x }: { x: ReturnType<typeof scaleUtc<number, number>> }) {
  const format = x.tickFormat(5);
  return (
    <g class="axis x">
      <Baseline />
      {x.ticks(5).map((tick) => (
        <text x={px(x(tick))} y={px(HEIGHT - MARGIN.bottom + 18)} text-anchor="middle">
          {format(tick)}
        </text>
      ))}
    </g>
  );
}

function Baseline() {
  return (
    <line
      class="baseline"
      x1={px(MARGIN.left)}
      x2={px(WIDTH - MARGIN.right)}
      y1={px(HEIGHT - MARGIN.bottom)}
      y2={px(HEIGHT - MARGIN.bottom)}
    />
  );
}

/** A time scale over whole days: from the first day's start to the last day's end. */
function dayScale(dates: readonly string[]) {
  const times = dates.map((d) => Date.parse(d));
  const first = Math.min(...times);
  const last = Math.max(...times);
  return scaleUtc()
    .domain([new Date(first), new Date(last + DAY_MS)])
    .range([MARGIN.left, WIDTH - MARGIN.right]);
}

/** Bar width for one day: most of a day's width, at least a hairline, never wider than 28. */
function barWidth(x: ReturnType<typeof scaleUtc<number, number>>, date: string): number {
  const start = Date.parse(date);
  return Math.min(28, Math.max(1.5, (x(new Date(start + DAY_MS)) - x(new Date(start))) * 0.8));
}

/**
 * Where each day is drawn: its centre, the width of its bar, and the x axis. Days that are
 * close together share a calendar axis; days scattered over years (a few days of data each
 * year) are drawn side by side instead, each gap between two days that do not follow each
 * other marked on the axis by a break, so bars stay readable and a gap is still a gap.
 */
export interface DayLayout {
  center: (date: string) => number;
  width: (date: string) => number;
  /** Where the axis is broken (between two days that do not follow each other), when compressed. */
  breaks: readonly number[];
  axis: ComponentChildren;
}

/** Up to this many empty days per day of data, the calendar is drawn as it is. */
const SPARSE = 3;
/** A gap's width, in days' widths, on a compressed axis. */
const GAP = 0.7;
/** The room a date label takes on the x axis, in the drawing's units (at a phone's larger labels). */
const LABEL_SPACING = 105;

export function dayLayout(dates: readonly string[]): DayLayout {
  const days = [...new Set(dates.map((d) => Date.parse(day(d))))].sort((a, b) => a - b);
  const first = days[0] ?? 0;
  const last = days[days.length - 1] ?? 0;
  const span = (last - first) / DAY_MS + 1;
  if (span <= Math.max(31, days.length * (SPARSE + 1))) {
    const x = dayScale(dates);
    return {
      center: (date) => x(new Date(Date.parse(day(date)) + DAY_MS / 2)),
      width: (date) => barWidth(x, date),
      breaks: [],
      axis: <TimeAxis x={x} />,
    };
  }
  const position = new Map<number, number>();
  const gaps: number[] = [];
  let at = 0;
  days.forEach((d, i) => {
    if (i > 0) {
      if (d - (days[i - 1] as number) > DAY_MS) {
        gaps.push(at + 0.5 + GAP / 2);
        at += GAP;
      }
      at += 1;
    }
    position.set(d, at);
  });
  const slot = (WIDTH - MARGIN.left - MARGIN.right) / (at + 1);
  const toX = (p: number): number => MARGIN.left + (p + 0.5) * slot;
  const center = (date: string): number => toX(position.get(Date.parse(day(date))) ?? 0);
  // Dates as labels, far enough apart not to run into each other: the first day, then each day at
  // least a label's width further, the last day in place of a label too close to it.
  const ticks: number[] = [];
  for (const d of days) {
    const last = ticks[ticks.length - 1];
    if (last === undefined || toX(position.get(d) ?? 0) - toX(position.get(last) ?? 0) >= LABEL_SPACING) ticks.push(d);
  }
  const end = days[days.length - 1];
  if (end !== undefined && ticks[ticks.length - 1] !== end) {
    if (
      ticks.length > 1 &&
      toX(position.get(end) ?? 0) - toX(position.get(ticks[ticks.length - 1] as number) ?? 0) < LABEL_SPACING
    )
      ticks.pop();
    ticks.push(end);
  }
  const y = HEIGHT - MARGIN.bottom;
  const breaks = gaps.map(toX);
  const width = Math.max(1.5, Math.min(28, slot * 0.8));
  return {
    center,
    width: () => width,
    breaks,
    axis: (
      <g class="axis x">
        <Baseline />
        {breaks.map((b) => (
          <path
            class="axis-break"
            d={`M${px(b - 3)},${px(y + 4)}L${px(b + 1)},${px(y - 4)}M${px(b - 1)},${px(y + 4)}L${px(b + 3)},${px(y - 4)}`}
          />
        ))}
        {ticks.map((tick) => (
          <text
            x={px(
              Math.min(
                WIDTH - LABEL_SPACING / 2,
                Math.max(MARGIN.left + LABEL_SPACING / 2 - 8, toX(position.get(tick) ?? 0)),
              ),
            )}
            y={px(y + 18)}
            text-anchor="middle"
          >
            {new Date(tick).toISOString().slice(0, 10)}
          </text>
        ))}
      </g>
    ),
  };
}

/** One value per day, as bars. */
export function DailyBars({
  id,
  title,
  unit,
  points,
}: {
  id: string;
  title: string;
  unit: string;
  points: readonly DayValue[];
}) {
  const description = describe(points, unit);
  if (points.length === 0) return <p class="muted">{`${title}: ${description}`}</p>;
  const layout = dayLayout(points.map((p) => p.date));
  const y = scaleLinear()
    .domain([0, Math.max(1, ...points.map((p) => p.value))])
    .nice(4)
    .range([HEIGHT - MARGIN.bottom, MARGIN.top]);
  return (
    <figure class="chart-figure">
      <Svg id={id} title={title} description={description}>
        <YAxis y={y} />
        {points.map((p) => (
          <rect
            class="bar c0"
            x={px(layout.center(p.date) - layout.width(p.date) / 2)}
            y={px(y(p.value))}
            width={px(layout.width(p.date))}
            height={px(Math.max(0, y(0) - y(p.value)))}
          />
        ))}
        {layout.axis}
      </Svg>
      <figcaption>{title}</figcaption>
    </figure>
  );
}

/**
 * Several values per day stacked (d3-shape's stack): the largest categories over the whole
 * range each in a colour, the rest summed as "other".
 */
export function StackedDailyBars({
  id,
  title,
  unit,
  points,
}: {
  id: string;
  title: string;
  unit: string;
  points: readonly DayValues[];
}) {
  const totals = new Map<string, number>();
  for (const p of points)
    for (const [key, value] of Object.entries(p.values)) totals.set(key, (totals.get(key) ?? 0) + value);
  const ranked = [...totals].sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0])).map(([key]) => key);
  const keys = ranked.length > MAX_SERIES ? [...ranked.slice(0, MAX_SERIES - 1), 'other'] : ranked;
  const kept = new Set(keys);
  const rows = points.map((p) => {
    const row: Record<string, number> & { date: number } = { date: Date.parse(p.date) } as never;
    for (const key of keys) row[key] = 0;
    for (const [key, value] of Object.entries(p.values))
      row[kept.has(key) ? key : 'other'] = (row[kept.has(key) ? key : 'other'] ?? 0) + value;
    return row;
  });
  const sums = points.map((p) => ({ date: p.date, value: Object.values(p.values).reduce((a, b) => a + b, 0) }));
  const description = `${describe(sums, unit)}${keys.length > 0 ? ` Largest: ${keys.filter((k) => k !== 'other').join(', ')}.` : ''}`;
  if (points.length === 0) return <p class="muted">{`${title}: ${description}`}</p>;
  const layout = dayLayout(points.map((p) => p.date));
  const y = scaleLinear()
    .domain([0, Math.max(1, ...sums.map((s) => s.value))])
    .nice(4)
    .range([HEIGHT - MARGIN.bottom, MARGIN.top]);
  const series = stack<Record<string, number>>().keys(keys)(rows);
  return (
    <figure class="chart-figure">
      <Svg id={id} title={title} description={description}>
        <YAxis y={y} />
        {series.map((layer, i) => (
          <g class={`c${i}`}>
            {layer.map((segment) => {
              const date = new Date(segment.data.date as number).toISOString();
              return (
                <rect
                  class="bar"
                  x={px(layout.center(date) - layout.width(date) / 2)}
                  y={px(y(segment[1]))}
                  width={px(layout.width(date))}
                  height={px(Math.max(0, y(segment[0]) - y(segment[1])))}
                />
              );
            })}
          </g>
        ))}
        {layout.axis}
      </Svg>
      <figcaption>
        {title}
        <ul class="legend">
          {keys.map((key, i) => (
            <li>
              <span class={`swatch c${i}`} aria-hidden="true"></span>
              {key}
            </li>
          ))}
        </ul>
      </figcaption>
    </figure>
  );
}

/**
 * A daily value as a line (d3-shape's line), broken where days are missing so that nothing is
 * drawn for days without data, with a dot on every day.
 */
export function DailyLine({
  id,
  title,
  unit,
  points,
  domain,
  format = compact,
}: {
  id: string;
  title: string;
  unit: string;
  points: readonly DayValue[];
  domain?: readonly [number, number];
  format?: (value: number) => string;
}) {
  const description = describe(points, unit);
  if (points.length === 0) return <p class="muted">{`${title}: ${description}`}</p>;
  const layout = dayLayout(points.map((p) => p.date));
  const y = scaleLinear()
    .domain(domain === undefined ? [0, Math.max(1e-9, ...points.map((p) => p.value))] : [domain[0], domain[1]])
    .nice(4)
    .range([HEIGHT - MARGIN.bottom, MARGIN.top]);
  const mid = layout.center;
  // A gap between two recorded days breaks the line.
  const withGaps: (DayValue | null)[] = [];
  points.forEach((p, i) => {
    const previous = points[i - 1];
    if (previous !== undefined && Date.parse(p.date) - Date.parse(previous.date) > DAY_MS) withGaps.push(null);
    withGaps.push(p);
  });
  const path = line<DayValue | null>()
    .defined((p) => p !== null)
    .x((p) => mid((p as DayValue).date))
    .y((p) => y((p as DayValue).value))(withGaps);
  return (
    <figure class="chart-figure">
      <Svg id={id} title={title} description={description}>
        <YAxis y={y} format={format} />
        <path class="line c0" d={path ?? ''} />
        {points.map((p) => (
          <circle class="dot c0" cx={px(mid(p.date))} cy={px(y(p.value))} r={2.5} />
        ))}
        {layout.axis}
      </Svg>
      <figcaption>{title}</figcaption>
    </figure>
  );
}

export interface Bar {
  label: string;
  value: number;
}

/** Horizontal bars, one per labelled value (shares of a whole, say). */
export function HorizontalBars({
  id,
  title,
  bars,
  format,
  max,
}: {
  id: string;
  title: string;
  bars: readonly Bar[];
  format: (value: number) => string;
  /** The value a full bar stands for (default: the largest). */
  max?: number;
}) {
  if (bars.length === 0) return null;
  const rowHeight = 22;
  const height = MARGIN.top + bars.length * rowHeight + 8;
  const left = 150;
  const y = scaleBand<number>()
    .domain(bars.map((_, i) => i))
    .range([MARGIN.top, height - 8])
    .padding(0.2);
  const x = scaleLinear()
    .domain([0, max ?? Math.max(1e-9, ...bars.map((b) => b.value))])
    .range([left, WIDTH - 70]);
  const description = bars.map((b) => `${b.label}: ${format(b.value)}`).join('; ');
  return (
    <figure class="chart-figure">
      <Svg id={id} title={title} description={description} height={height}>
        {bars.map((b, i) => (
          <g>
            <text
              class="axis-label"
              x={px(left - 6)}
              y={px((y(i) ?? 0) + y.bandwidth() / 2)}
              dy="0.32em"
              text-anchor="end"
            >
              {b.label.length > 16 ? `${b.label.slice(0, 7)}…${b.label.slice(-5)}` : b.label}
            </text>
            <rect
              class="bar c0"
              x={px(left)}
              y={px(y(i))}
              width={px(Math.max(1, x(b.value) - left))}
              height={px(y.bandwidth())}
            />
            <text class="axis-label" x={px(x(b.value) + 4)} y={px((y(i) ?? 0) + y.bandwidth() / 2)} dy="0.32em">
              {format(b.value)}
            </text>
          </g>
        ))}
      </Svg>
      <figcaption>{title}</figcaption>
    </figure>
  );
}
