import { parseArgs } from 'node:util';
import { mapEngineError } from '../engine/error-mapping.js';
import { CommandError, ErrorCode, isAppError, UsageError } from '../errors.js';

/** Options as `node:util` parseArgs declares them. */
export type CommandOptions = Record<
  string,
  { type: 'string' | 'boolean'; multiple?: boolean; short?: string; default?: string | boolean | string[] }
>;
type Options = CommandOptions;

/** What a command's `run` receives: its options, typed from their declaration, and its positionals. */
export type CommandArgs<O extends Options> = ReturnType<typeof parseArgs<{ options: O; allowPositionals: true }>>;

/**
 * One command of a command-line tool, in a module of its own: its usage (the command's words, then
 * its arguments: `keys create --plan pro|enterprise [--label TEXT]`), its help, its options as
 * `node:util` parseArgs declares them, and what it does. `run` returns the process's exit code.
 */
export interface CommandSpec<O extends Options = Options> {
  usage: string;
  summary: string;
  /** Options as parseArgs declares them (default none). */
  options?: O;
  /** How many positionals it takes (default none). */
  positionals?: { min: number; max: number };
  run: (args: CommandArgs<O>) => Promise<number>;
}

/** A declared command, with its words (`keys create`) and synopsis split out of its usage. */
export interface Command extends CommandSpec {
  name: string;
  synopsis: string;
}

export function defineCommand<const O extends Options>(spec: CommandSpec<O>): Command {
  const tokens = spec.usage.split(' ');
  const words = tokens.findIndex((token) => !/^[a-z][a-z-]*$/.test(token));
  const at = words === -1 ? tokens.length : words;
  return {
    ...(spec as unknown as CommandSpec),
    name: tokens.slice(0, at).join(' '),
    synopsis: tokens.slice(at).join(' '),
  };
}

/** An integer option within bounds, or its default; anything else is a usage error. */
export function integerOption(
  value: string | undefined,
  name: string,
  bounds: { min: number; max?: number; default?: number },
): number {
  if (value === undefined) {
    if (bounds.default === undefined) throw new UsageError(`--${name} is required`);
    return bounds.default;
  }
  const n = Number(value);
  if (
    !/^-?\d+$/.test(value) ||
    !Number.isSafeInteger(n) ||
    n < bounds.min ||
    (bounds.max !== undefined && n > bounds.max)
  )
    throw new UsageError(
      `--${name} takes an integer ${bounds.max === undefined ? `>= ${bounds.min}` : `from ${bounds.min} to ${bounds.max}`}, not ${value}`,
    );
  return n;
}

function usageOf(program: string, commands: readonly Command[]): string {
  const lines = commands.map((c) => {
    const head = `  ${c.usage}`;
    const help = c.summary
      .split('\n')
      .map((line) => `      ${line}`)
      .join('\n');
    return `${head}\n${help}`;
  });
  return `usage: ${program} <command>\n${lines.join('\n')}`;
}

/** The command whose words start `argv` (the longest match), and the arguments after them. */
function findCommand(commands: readonly Command[], argv: readonly string[]): [Command, string[]] | undefined {
  let best: [Command, string[]] | undefined;
  for (const command of commands) {
    const words = command.name.split(' ');
    if (words.every((w, i) => argv[i] === w) && (best === undefined || words.length > best[0].name.split(' ').length))
      best = [command, argv.slice(words.length)];
  }
  return best;
}

/**
 * `--name value` of a string option becomes `--name=value` unless the value is another option of
 * the command, so that values starting with a dash (`--keep-days -1`) reach the command's own
 * check instead of parseArgs' "ambiguous" refusal.
 */
function joinOptionValues(args: readonly string[], options: Options): string[] {
  const isOption = (arg: string | undefined): boolean =>
    arg !== undefined && arg.startsWith('--') && Object.hasOwn(options, arg.slice(2).split('=')[0] as string);
  const joined: string[] = [];
  for (let i = 0; i < args.length; i += 1) {
    const arg = args[i] as string;
    const name = arg.startsWith('--') && !arg.includes('=') ? arg.slice(2) : undefined;
    const next = args[i + 1];
    if (name !== undefined && options[name]?.type === 'string' && next !== undefined && !isOption(next)) {
      joined.push(`${arg}=${next}`);
      i += 1;
    } else joined.push(arg);
  }
  return joined;
}

/** Runs one command of a table with its parsed arguments; returns the exit code. */
export async function runCommand(
  program: string,
  commands: readonly Command[],
  argv: readonly string[],
): Promise<number> {
  const words = argv.filter((a) => !a.startsWith('-'));
  const help = argv.includes('--help') || argv.includes('-h');
  const found = findCommand(commands, argv) ?? (help ? findCommand(commands, words) : undefined);
  if (help) {
    // `--help` anywhere: the command's own usage and help, or every command's.
    console.log(
      found === undefined
        ? usageOf(program, commands)
        : `usage: ${program} ${found[0].usage}\n${found[0].summary
            .split('\n')
            .map((line) => `  ${line}`)
            .join('\n')}`,
    );
    return 0;
  }
  if (found === undefined) {
    const said = words.join(' ');
    const below = commands.filter((c) => said !== '' && c.name.startsWith(`${said} `));
    if (below.length > 0) {
      console.error(
        `error: “${said}” takes a subcommand: ${below.map((c) => c.name.slice(said.length + 1)).join(', ')}\n` +
          usageOf(program, below),
      );
      return 64;
    }
    console.error(
      `${said === '' ? 'error: name a command' : `error: unknown command “${said}”`}\n${usageOf(program, commands)}`,
    );
    return 64;
  }
  const [command, rest] = found;
  try {
    let args: CommandArgs<Options>;
    try {
      args = parseArgs({
        args: joinOptionValues(rest, command.options ?? {}),
        options: command.options ?? {},
        allowPositionals: true,
        strict: true,
      });
    } catch (error) {
      throw new UsageError((error as Error).message);
    }
    const { min, max } = command.positionals ?? { min: 0, max: 0 };
    if (args.positionals.length < min || args.positionals.length > max)
      throw new UsageError(`${command.name} takes ${min === max ? min : `${min} to ${max}`} argument(s)`);
    return await command.run(args);
  } catch (error) {
    if (error instanceof UsageError) {
      console.error(`error: ${error.message}\nusage: ${program} ${command.usage}`);
      return error.exitCode;
    }
    reportError(error);
    return error instanceof CommandError ? error.exitCode : 1;
  }
}

/** Prints a command's failure: its stable code and message (and details), or the stack of a bug. */
export function reportError(thrown: unknown): void {
  // An unreachable or refusing engine is said in words, not as a client stack trace.
  const error = mapEngineError(thrown);
  if (isAppError(error) || error instanceof CommandError) {
    // Which engine request failed, when it was one: the method and path (never the body or headers).
    const request = (thrown as { meta?: { meta?: { request?: { params?: { method?: string; path?: string } } } } })
      ?.meta?.meta?.request?.params;
    const where = request?.path === undefined ? '' : ` (${request.method ?? ''} ${request.path})`;
    console.error(`error ${error.code}: ${error.message}${where}`);
    // A configuration's problems are in its message already, one line each.
    if (error.details !== undefined && error.code !== ErrorCode.ConfigInvalid)
      console.error(JSON.stringify(error.details, null, 2));
  } else console.error(`error: ${(error as Error)?.stack ?? String(error)}`);
}

/** The whole life of a command-line tool: run the command named by the process's arguments, then exit. */
export function runCli(program: string, commands: readonly Command[]): void {
  runCommand(program, commands, process.argv.slice(2)).then(
    (code) => process.exit(code),
    (error: unknown) => {
      reportError(error);
      process.exit(1);
    },
  );
}
