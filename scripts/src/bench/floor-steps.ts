/**
 * The engine requests a floor server of bench:api sends for one request: the benchmark names them
 * in the request's path (`GET /f/<base64url JSON of steps>`), so that a floor does, request by
 * request, the engine work the API does for the same id, and nothing else.
 */
export interface FloorStep {
  path: string;
  method?: string;
  body?: string;
}

/** The path of a floor request sending `steps` in turn. */
export const floorPath = (steps: readonly FloorStep[]): string =>
  `/f/${Buffer.from(JSON.stringify(steps)).toString('base64url')}`;

/** The steps a floor request names; undefined for any other path. */
export function floorSteps(url: string | undefined): FloorStep[] | undefined {
  if (url?.startsWith('/f/') !== true) return undefined;
  try {
    return JSON.parse(Buffer.from(url.slice(3), 'base64url').toString('utf8')) as FloorStep[];
  } catch {
    return undefined;
  }
}
