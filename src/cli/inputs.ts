import type { Writable } from 'node:stream';
import type { OpenInput } from '../inputs/gate.js';
import type { InputSpec } from '../inputs/spec.js';
import type { AnswerReceipt } from '../runtime/runtime.js';
import type { ReplyEnvelope } from '../workflow/reply.js';
import { formatReply } from './chat.js';

/**
 * `gateflow inputs` and `gateflow input <gateId> <value>`: the open input
 * gates, and answering one, from a terminal. Where the gates are (the store
 * itself, or a running server over HTTP) is an {@link InputsSource}; what is
 * printed is the same for both.
 */

/** Which open gates to list. */
export interface InputsQuery {
  sessionId?: string;
  workflowId?: string;
}

/** Where the gates are read and answered: the store itself, or a server. */
export interface InputsSource {
  list(query: InputsQuery): Promise<OpenInput[]>;
  /** Answers a gate with text as typed (the gate's type reads it: "yes", "42", JSON, a date). */
  answer(gateId: string, value: string): Promise<ReplyEnvelope | AnswerReceipt>;
  close(): Promise<void>;
}

const write = (out: Writable, text: string) => out.write(text.endsWith('\n') ? text : `${text}\n`);

/** `gateflow inputs`: a table of the open gates, or with `json` the array. */
export async function runInputs(source: InputsSource, query: InputsQuery, options: { json: boolean; now?: Date }, out: Writable): Promise<number> {
  const inputs = await source.list(query);
  if (options.json) write(out, JSON.stringify(inputs));
  else write(out, inputs.length === 0 ? 'no open input gates' : formatInputs(inputs, options.now ?? new Date()));
  return 0;
}

/** `gateflow input <gateId> <value>`: the session's new reply as a chat shows it, or with `json` the reply. */
export async function runInput(source: InputsSource, gateId: string, value: string, options: { json: boolean; color?: boolean }, out: Writable): Promise<number> {
  const reply = await source.answer(gateId, value);
  if (options.json) write(out, JSON.stringify(reply));
  // A server answers a role holder with the gate's receipt only: the session is not theirs to read.
  else if (!('message' in reply)) write(out, `answered ${reply.name} (${reply.gateId}): ${JSON.stringify(reply.value)}`);
  else write(out, formatAnswered(reply, options.color ?? false));
  return 0;
}

/** The reply after an answer, and the session's gates still open (their ids, to answer the next). */
export function formatAnswered(reply: ReplyEnvelope, color = false): string {
  const open = reply.inputs ?? [];
  const still = open.map((g) => `  ${g.gateId}  ${g.name} (${typeHint(g.spec)})${g.to ? ` for ${g.to}` : ''}`);
  return [formatReply(reply, color), ...(still.length > 0 ? ['', 'still waiting for:', ...still] : [])].join('\n');
}

const COLUMNS = ['GATE', 'SESSION', 'WORKFLOW', 'NAME', 'TYPE', 'TO', 'DEADLINE', 'DESCRIPTION'] as const;

/** The gates as a table, one per line, the description last (not padded: it may be long). */
export function formatInputs(inputs: readonly OpenInput[], now: Date): string {
  const rows = inputs.map((g) => [
    g.gateId,
    g.sessionId,
    g.workflowId,
    g.name,
    typeHint(g.spec),
    g.to ?? '(chat)',
    g.deadline ? deadlineText(new Date(g.deadline), now) : '-',
    oneLine(g.description ?? ''),
  ]);
  const all = [[...COLUMNS], ...rows];
  const widths = COLUMNS.map((_, i) => Math.max(...all.map((r) => r[i]!.length)));
  return all.map((r) => r.map((cell, i) => (i === r.length - 1 ? cell : cell.padEnd(widths[i]!))).join('  ').trimEnd()).join('\n');
}

/** What a gate takes, short: `yes/no`, `number 0..5000 EUR`, `one of: a, b`. */
export function typeHint(spec: InputSpec): string {
  const range = (min: number | string | undefined, max: number | string | undefined) =>
    min !== undefined && max !== undefined ? ` ${min}..${max}` : min !== undefined ? ` >= ${min}` : max !== undefined ? ` <= ${max}` : '';
  switch (spec.type) {
    case 'boolean':
      return `${(spec.trueLabel ?? 'yes').toLowerCase()}/${(spec.falseLabel ?? 'no').toLowerCase()}`;
    case 'number':
      return `number${range(spec.min, spec.max)}${spec.unit ? ` ${spec.unit}` : ''}`;
    case 'integer':
      return `whole number${range(spec.min, spec.max)}`;
    case 'string':
      return spec.maxLength !== undefined ? `text (at most ${spec.maxLength})` : 'text';
    case 'enum':
      return `one of: ${spec.options.map((o) => (typeof o === 'string' ? o : o.value)).join(', ')}`;
    case 'date':
      return `date${range(spec.min, spec.max)}`;
    case 'email':
      return 'email';
    case 'json':
      return 'JSON';
  }
}

/** `2026-11-25 10:00 UTC (in 23h 59m)`, or `(passed)`. */
export function deadlineText(deadline: Date, now: Date): string {
  const at = `${deadline.toISOString().slice(0, 16).replace('T', ' ')} UTC`;
  const ms = deadline.getTime() - now.getTime();
  if (ms <= 0) return `${at} (passed)`;
  const minutes = Math.ceil(ms / 60_000);
  const d = Math.floor(minutes / 1440);
  const h = Math.floor((minutes % 1440) / 60);
  const m = minutes % 60;
  const left = d > 0 ? `${d}d ${h}h` : h > 0 ? `${h}h ${m}m` : `${m}m`;
  return `${at} (in ${left})`;
}

const oneLine = (text: string) => text.replace(/\s+/g, ' ').trim();
