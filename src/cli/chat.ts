import { createInterface } from 'node:readline';
import type { Readable, Writable } from 'node:stream';
import type { AnyActorLogic } from 'xstate';
import { GateflowError } from '../error/gateflow-error.js';
import { createRuntime, type Runtime } from '../runtime/runtime.js';
import { createMemoryStore } from '../store/memory.js';
import type { ReplyEnvelope } from '../workflow/reply.js';
import type { Turn } from '../workflow/turn.js';
import type { Workflow } from '../workflow/types.js';

/** What a chat gives the runtime: the actors the workflow's machine names (the extractor too), a sink for what it emits. */
export interface ChatOptions {
  actors?: Record<string, AnyActorLogic>;
  /** Receives what the machine emits (a flow's trace events): `--trace`. */
  onTrace?: (event: { type: string }) => void;
}

export interface ChatIO {
  input: Readable;
  output: Writable;
  /** Show a prompt and numbered buttons (a person at a terminal). */
  interactive: boolean;
}

/** Lines of the input, one at a time, as they arrive (a file or another program). */
function lines(input: Readable) {
  return createInterface({ input, crlfDelay: Infinity, terminal: false });
}

const write = (output: Writable, text: string) => output.write(text.endsWith('\n') ? text : `${text}\n`);

/**
 * A chat in the terminal runs through the runtime like every session (one
 * turn queue, replays by turnId, spans), on the in-memory store: nothing is
 * kept after it ends.
 */
async function startChat(workflow: Workflow, options: ChatOptions): Promise<{ runtime: Runtime; sessionId: string; reply: ReplyEnvelope }> {
  const runtime = createRuntime({
    workflows: [workflow],
    store: createMemoryStore(),
    ...(options.actors && { actors: options.actors }),
    ...(options.onTrace && { onEmitted: options.onTrace }),
  });
  const { sessionId, reply } = await runtime.start(workflow.id);
  return { runtime, sessionId, reply };
}

/**
 * `gateflow chat <workflow> --json`: the opening reply as one JSON line, then
 * one turn per input line (`{"text": ...}` or `{"button": ...}`) and one reply
 * per line. A line that is not a valid turn gets `{"error": {code, message}}`
 * and changes nothing.
 */
export async function chatJson(workflow: Workflow, io: Pick<ChatIO, 'input' | 'output'>, options: ChatOptions = {}): Promise<number> {
  const { runtime, sessionId, reply } = await startChat(workflow, options);
  write(io.output, JSON.stringify(reply));
  for await (const line of lines(io.input)) {
    if (line.trim() === '') continue;
    let turn: unknown;
    try {
      turn = JSON.parse(line);
    } catch (error) {
      write(io.output, JSON.stringify({ error: { code: 'invalid_json', message: `not JSON: ${(error as Error).message}` } }));
      continue;
    }
    write(io.output, JSON.stringify(await replyOrError(() => runtime.turn(sessionId, turn))));
  }
  return 0;
}

async function replyOrError(send: () => Promise<ReplyEnvelope>): Promise<ReplyEnvelope | { error: { code: string; message: string } }> {
  try {
    return await send();
  } catch (error) {
    if (error instanceof GateflowError) return { error: error.toJSON() };
    throw error;
  }
}

/** How a reply looks in a terminal: the message, then the buttons as numbered choices. */
export function formatReply(reply: ReplyEnvelope): string {
  const out = [reply.message];
  if (reply.buttons) out.push('', ...reply.buttons.map((b, i) => `  ${i + 1}) ${b.label}`));
  if (reply.completion.isComplete)
    out.push('', `── finished: ${reply.completion.reason.replaceAll('_', ' ')}${reply.completion.readyForHandoff ? ' (ready for handoff)' : ''} ──`);
  return out.join('\n');
}

/** What a typed line means: a number picks a button, anything else is text. */
export function lineToTurn(line: string, reply: ReplyEnvelope): Turn {
  const choice = /^\s*(\d+)\s*$/.exec(line);
  const button = choice && reply.buttons?.[Number(choice[1]) - 1];
  return button ? { button: button.value } : { text: line };
}

/** `gateflow chat <workflow>`: a chat in the terminal. */
export async function chatInteractive(workflow: Workflow, io: ChatIO, options: ChatOptions = {}): Promise<number> {
  const started = await startChat(workflow, options);
  let reply = started.reply;
  const prompt = () => io.interactive && io.output.write('> ');
  write(io.output, `${workflow.title ?? workflow.id} (type a number to press a button, or answer in your own words)\n\n`);
  write(io.output, formatReply(reply));
  prompt();
  for await (const line of lines(io.input)) {
    if (line.trim() === '') {
      prompt();
      continue;
    }
    try {
      reply = await started.runtime.turn(started.sessionId, lineToTurn(line, reply));
    } catch (error) {
      if (!(error instanceof GateflowError) || error.status >= 500) throw error;
      write(io.output, error.publicMessage);
      prompt();
      continue;
    }
    write(io.output, `\n${formatReply(reply)}`);
    if (reply.completion.isComplete) break;
    prompt();
  }
  return 0;
}
