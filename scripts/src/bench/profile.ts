import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

/** A V8 CPU profile as `--cpu-prof` writes it (the fields read here). */
interface CpuProfile {
  /** Microseconds on the machine's monotonic clock (process.hrtime's, in every process). */
  startTime: number;
  nodes: { id: number; callFrame: { functionName: string; url: string; lineNumber: number }; hitCount?: number }[];
  samples: number[];
  timeDeltas: number[];
}

/** Where a function lives: one of our packages' files, a dependency, Node itself, or V8's own. */
function placeOf(url: string, name: string): string {
  if (url === '') return name.startsWith('(') ? name : '(native)';
  if (url.startsWith('node:')) return url;
  const dependency = /node_modules\/(?:\.pnpm\/[^/]+\/node_modules\/)?((?:@[^/]+\/)?[^/]+)/.exec(url);
  if (dependency !== null) return dependency[1] as string;
  const ours = /packages\/([^/]+)\/dist\/src\/(.+)\.js$/.exec(url);
  if (ours !== null) return `@xle/${ours[1]}/${ours[2]}`;
  return url.replace(/^file:\/\//, '');
}

/** Now on the monotonic clock V8's profiles use, in microseconds. */
export const monotonicMicros = (): number => Number(process.hrtime.bigint() / 1000n);

/** Self time by place and by function within `window` (monotonic µs), idle left out. */
export function selfTimes(
  file: string,
  window: [number, number],
): { busy: number; places: Map<string, number>; functions: Map<string, number> } {
  const profile = JSON.parse(readFileSync(file, 'utf8')) as CpuProfile;
  const byId = new Map(profile.nodes.map((n) => [n.id, n]));
  const selfUs = new Map<number, number>();
  let at = profile.startTime;
  profile.samples.forEach((id, i) => {
    const delta = profile.timeDeltas[i] ?? 0;
    at += delta;
    if (at >= window[0] && at <= window[1]) selfUs.set(id, (selfUs.get(id) ?? 0) + delta);
  });
  const places = new Map<string, number>();
  const functions = new Map<string, number>();
  let busy = 0;
  for (const [id, us] of selfUs) {
    const frame = byId.get(id)?.callFrame;
    if (frame === undefined || frame.functionName === '(idle)') continue;
    busy += us;
    const place = placeOf(frame.url, frame.functionName);
    places.set(place, (places.get(place) ?? 0) + us);
    const fn = `${frame.functionName || '(anonymous)'} ${place}:${frame.lineNumber + 1}`;
    functions.set(fn, (functions.get(fn) ?? 0) + us);
  }
  return { busy, places, functions };
}

/**
 * The self time of the API's CPU profile within `window`, next to the stack floor's in the same
 * window: by place (the flame graph's leaves, summed where they live) and by function, in
 * microseconds per request over `requests`, with the API's excess over the floor. Profiling slows
 * both alike, so the figures are for ranking, not the CPU budget (bench:api's /proc columns are).
 */
export function profileSummary(
  api: string,
  floor: string,
  window: [number, number],
  requests: number,
  top = 20,
): string[] {
  const ours = selfTimes(api, window);
  const base = selfTimes(floor, window);
  const per = (us: number): string => `${(us / requests).toFixed(1).padStart(7)}`;
  const rank = (m: Map<string, number>, b: Map<string, number>): string[] =>
    [...m]
      .sort((x, y) => y[1] - (b.get(y[0]) ?? 0) - (x[1] - (b.get(x[0]) ?? 0)))
      .slice(0, top)
      .map(([name, us]) => `    ${per(us)} ${per(b.get(name) ?? 0)} ${per(us - (b.get(name) ?? 0))}  ${name}`);
  return [
    `  busy µs per request (self time, idle left out): API ${per(ours.busy)}, stack floor ${per(base.busy)}`,
    `  by place, most in excess of the floor first (API, floor, excess µs per request):`,
    ...rank(ours.places, base.places),
    `  by function:`,
    ...rank(ours.functions, base.functions),
  ];
}

/** The one profile a process wrote into `dir` (`--cpu-prof-dir`). */
export function profileIn(dir: string): string {
  const files = readdirSync(dir).filter((f) => f.endsWith('.cpuprofile'));
  if (files.length !== 1) throw new Error(`expected one .cpuprofile in ${dir}, found ${files.length}`);
  return join(dir, files[0] as string);
}
