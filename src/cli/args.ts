import { parseArgs } from 'node:util';
import { CliError } from './io.js';
import { wrap } from './wrap.js';
import { closestName as closest } from '../extract/suggest.js';

/** One option of a command, as its help shows it. */
export interface OptionSpec {
  type: 'boolean' | 'string';
  /** What a string option's value is called in the help (`N`, `DIR`). */
  value?: string;
  description: string;
}

/** A command: its arguments, its options and its help. */
export interface CommandSpec {
  /** The positional arguments it takes, each exactly once (`<flow>`). */
  args: readonly string[];
  /** One line, lower case, no full stop: the general usage lists it; the command's help makes it a sentence. */
  summary: string;
  /** More text for `gateflow <command> --help`, after the options. */
  details?: string;
  options: Readonly<Record<string, OptionSpec>>;
}

export type OptionValues = Partial<Record<string, string | boolean>>;

/** What the command line asks for. */
export type CommandLine =
  | { kind: 'run'; command: string; args: string[]; values: OptionValues }
  /** `--help`: the command's help, or the general usage when `command` is undefined. */
  | { kind: 'help'; command: string | undefined };

/** `-h, --help` is an option of every command. */
const HELP: OptionSpec = { type: 'boolean', description: 'print this help' };

const didYouMean = (guess: string | undefined) => (guess === undefined ? '' : `; did you mean ${guess}?`);

const optionsOf = (spec: CommandSpec) => ({ ...spec.options, help: HELP });

/** `--json`, or `-h, --help`. */
const optionName = (name: string) => (name === 'help' ? '-h, --help' : `--${name}`);

/** The synopsis line: `gateflow chat <flow> [--json] [--trace]`. */
export function synopsis(name: string, spec: CommandSpec): string {
  const options = Object.entries(spec.options).map(([o, s]) => (s.type === 'string' ? `[--${o} ${s.value ?? 'VALUE'}]` : `[--${o}]`));
  return ['gateflow', name, ...spec.args, ...options].join(' ');
}

/** `gateflow <command> --help`. */
export function commandHelp(name: string, spec: CommandSpec): string {
  const entries = Object.entries(optionsOf(spec)).map(([o, s]) => [s.type === 'string' ? `${optionName(o)} ${s.value ?? 'VALUE'}` : optionName(o), s.description] as const);
  const width = Math.max(...entries.map(([left]) => left.length));
  // Wrapped to 80 columns: a description under its own column, the synopsis under the command.
  return [
    wrap(`usage: ${synopsis(name, spec)}`, '', ' '.repeat(`usage: gateflow ${name} `.length)),
    '',
    wrap(`${spec.summary.charAt(0).toUpperCase()}${spec.summary.slice(1)}.`),
    '',
    'options:',
    ...entries.map(([left, description]) => wrap(description, `  ${left.padEnd(width)}  `, ' '.repeat(width + 4))),
    ...(spec.details ? ['', wrap(spec.details)] : []),
  ].join('\n');
}

/**
 * Reads a command line against the commands' specs. A mistake is a usage
 * error (exit 2) that says what to write instead: the command or option that
 * was probably meant, the argument that is missing. `--help` anywhere asks for
 * help, and wins over the mistakes.
 */
export function parseCommandLine(argv: string[], commands: Readonly<Record<string, CommandSpec>>, usage: string): CommandLine {
  const all = Object.assign({}, ...Object.values(commands).map(optionsOf)) as Record<string, OptionSpec>;
  // A first, lenient reading finds the command and the options as written, known or not.
  const loose = parseArgs({
    args: argv,
    strict: false,
    allowPositionals: true,
    tokens: true,
    options: { ...Object.fromEntries(Object.entries(all).map(([o, s]) => [o, { type: s.type }])), help: { type: 'boolean', short: 'h' } },
  });
  const [command, ...rest] = loose.positionals;
  const wantsHelp = loose.values.help === true;
  const names = Object.keys(commands);
  if (command === 'help') {
    const topic = rest[0];
    if (topic !== undefined && !Object.hasOwn(commands, topic)) throw new CliError(`unknown command "${topic}"${didYouMean(closest(topic, names))}\n\n${usage}`, 2);
    return { kind: 'help', command: topic };
  }
  if (command === undefined) {
    if (wantsHelp) return { kind: 'help', command: undefined };
    throw new CliError(`gateflow: which command?\n\n${usage}`, 2);
  }
  const spec = Object.hasOwn(commands, command) ? commands[command] : undefined;
  if (!spec) throw new CliError(`unknown command "${command}"${didYouMean(closest(command, names))}\n\n${usage}`, 2);
  if (wantsHelp) return { kind: 'help', command };

  const options = optionsOf(spec);
  const seeHelp = `\n(see gateflow ${command} --help)`;
  for (const token of loose.tokens) {
    if (token.kind !== 'option' || Object.hasOwn(options, token.name)) continue;
    const long = token.rawName.startsWith('--');
    const guess = long ? closest(token.name, Object.keys(options)) : undefined;
    throw new CliError(`gateflow ${command}: unknown option ${token.rawName}${didYouMean(guess && `--${guess}`)}${seeHelp}`, 2);
  }
  let values: OptionValues;
  try {
    ({ values } = parseArgs({ args: argv, strict: true, allowPositionals: true, options: Object.fromEntries(Object.entries(options).map(([o, s]) => [o, { type: s.type }])) }));
  } catch (error) {
    // A string option without its value, a boolean given one: node's words are clear enough.
    throw new CliError(`gateflow ${command}: ${(error as Error).message}${seeHelp}`, 2);
  }
  if (rest.length !== spec.args.length) {
    const wanted = spec.args.length === 0 ? 'no arguments' : `${spec.args.length} argument${spec.args.length === 1 ? '' : 's'} (${spec.args.join(' ')})`;
    throw new CliError(`gateflow ${command}: expected ${wanted}, got ${rest.length === 0 ? 'none' : rest.map((a) => JSON.stringify(a)).join(' ')}\nusage: ${synopsis(command, spec)}${seeHelp}`, 2);
  }
  return { kind: 'run', command, args: rest, values };
}
