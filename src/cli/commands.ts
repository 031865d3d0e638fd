import { synopsis, type CommandSpec } from './args.js';
import { exampleFlowNames } from './io.js';

const FLOW = () => `<flow> is a flow document (a JSON file) or the name of an example flow: ${exampleFlowNames().join(', ')}.`;
const MODEL = 'A model reads free text when OPENAI_API_KEY or OPENAI_BASE_URL is set (GATEFLOW_MODEL names it); otherwise the offline matcher alone does.';

/** Every command the CLI takes: its arguments, options and help. */
export const COMMANDS = {
  chat: {
    args: ['<flow>'],
    summary: 'chat with a flow in the terminal, until the conversation is finished',
    options: {
      json: { type: 'boolean', description: 'one JSON turn per input line ({"text": ...} or {"button": ...}), one Reply per output line; a refused line gets {"error": {code, message}}' },
      trace: { type: 'boolean', description: "also write the flow's events (node entries, guards, answers, votes) as JSON lines on stderr" },
    },
    get details() {
      return `Buttons are numbered: type the number to press one; anything else is free text.\n${FLOW()}\nIt may also be a module (.js, .mjs, .ts) whose default export is a workflow.\n${MODEL}`;
    },
  },
  eval: {
    args: ['<flow>', '<cases.jsonl>'],
    summary: 'score the offline matcher on labeled utterances',
    options: { json: { type: 'boolean', description: 'print the figures as one JSON object' } },
    get details() {
      return `<cases.jsonl> has one {"gate", "text", "expected"} per line.\n${FLOW()}`;
    },
  },
  serve: {
    args: [],
    summary: 'serve the HTTP API and the demo page (PGlite in .gateflow/db, or PostgreSQL at DATABASE_URL)',
    options: {
      port: { type: 'string', value: 'N', description: 'the port to listen on (default: PORT, or 3000)' },
      flows: { type: 'string', value: 'DIR', description: 'serve the flow documents in DIR (default: the example flows)' },
    },
    details: `The README lists the environment variables it reads.\n${MODEL}`,
  },
  validate: {
    args: ['<flow>'],
    summary: 'check a flow document, gate config or checklist: errors and warnings (exit 1 on errors)',
    options: { json: { type: 'boolean', description: 'print the report as JSON' } },
    get details() {
      return FLOW();
    },
  },
  viz: {
    args: ['<flow>'],
    summary: 'draw the compiled machine (guards on the edges, ui hints in meta)',
    options: { format: { type: 'string', value: 'mermaid|dot|json', description: 'the drawing (default: mermaid)' } },
    get details() {
      return FLOW();
    },
  },
  schema: {
    args: [],
    summary: 'print the JSON Schema of flow documents (or of gate configs)',
    options: { 'gate-config': { type: 'boolean', description: 'print the JSON Schema of gate configs instead' } },
  },
} satisfies Record<string, CommandSpec>;

/** `gateflow --help`: every command on a line, then how to get one command's help. */
export function usage(): string {
  const lines = Object.entries(COMMANDS).map(([name, spec]) => [synopsis(name, spec).replace(/^gateflow /, ''), spec.summary] as const);
  const width = Math.max(...lines.map(([left]) => left.length));
  return [
    'usage: gateflow <command> [options]',
    '',
    'commands:',
    ...lines.map(([left, summary]) => `  ${left.padEnd(width)}  ${summary}`),
    '',
    'gateflow <command> --help prints the help of one command.',
    FLOW(),
    MODEL,
  ].join('\n');
}
