import { createInterface } from 'node:readline';
import type { Readable, Writable } from 'node:stream';
import type { AnyActorLogic } from 'xstate';
import { GateflowError } from '../error/gateflow-error.js';
import { KEEP_VALUE, SKIP_VALUE } from '../flow/answer.js';
import { createRuntime, type Runtime } from '../runtime/runtime.js';
import { createMemoryStore } from '../store/memory.js';
import type { Store } from '../store/types.js';
import type { ReplyEnvelope } from '../workflow/reply.js';
import { parseTurn, type Turn } from '../workflow/turn.js';
import { InvalidTurnError } from '../runtime/errors.js';
import type { Workflow } from '../workflow/types.js';
import { parseChatCommand, runChatCommand, waitingHint } from './chat-commands.js';
import { renderMarkdown } from './markdown.js';

/** What a chat gives the runtime: the actors the workflow's machine names (the extractor too), a sink for what it emits. */
export interface ChatOptions {
  actors?: Record<string, AnyActorLogic>;
  /** Where the session lives (the in-memory store unless said: the task agent's chat keeps its graph). */
  store?: Store;
  /** Receives what the machine emits (a flow's trace events): `--trace`. */
  onTrace?: (event: { type: string }) => void;
}

export interface ChatIO {
  input: Readable;
  output: Writable;
  /** Show a prompt and numbered buttons (a person at a terminal). */
  interactive: boolean;
  /** Style messages with ANSI escapes (bold, underlined headings): the output is a terminal. */
  color?: boolean;
}

/** Lines of the input, one at a time, as they arrive (a file or another program). */
function lines(input: Readable) {
  return createInterface({ input, crlfDelay: Infinity, terminal: false });
}

/**
 * Reads the input line by line until `onLine` says the chat is over (or the
 * input ends), then lets go of the input: a terminal's stdin left open would
 * keep the process waiting for a line nobody needs to type.
 */
async function eachLine(input: Readable, onLine: (line: string) => Promise<'next' | 'stop'>): Promise<void> {
  const reader = lines(input);
  try {
    for await (const line of reader) if ((await onLine(line)) === 'stop') break;
  } finally {
    reader.close();
  }
}

/** Whether a reply ends the conversation: it takes no more turns. */
export const isFinished = (reply: ReplyEnvelope) =>
  reply.completion.isComplete || reply.status === 'done' || reply.status === 'cancelled' || reply.status === 'failed';

const write = (output: Writable, text: string) => output.write(text.endsWith('\n') ? text : `${text}\n`);

/**
 * A chat in the terminal runs through the runtime like every session (one
 * turn queue, replays by turnId, spans), on the in-memory store: nothing is
 * kept after it ends.
 */
async function startChat(workflow: Workflow, options: ChatOptions): Promise<{ runtime: Runtime; sessionId: string; reply: ReplyEnvelope }> {
  const runtime = createRuntime({
    workflows: [workflow],
    store: options.store ?? createMemoryStore(),
    ...(options.actors && { actors: options.actors }),
    ...(options.onTrace && { onEmitted: options.onTrace }),
  });
  const { sessionId, reply } = await runtime.start(workflow.id);
  return { runtime, sessionId, reply };
}

/**
 * `gateflow chat <workflow> --json`: the opening reply as one JSON line, then
 * one turn per input line (`{"text": ...}` or `{"button": ...}`) and one reply
 * per line, until a reply finishes the conversation. A line that is refused
 * (not JSON, not a turn, a button that is not offered) gets
 * `{"error": {code, message}}` and changes nothing.
 */
export async function chatJson(workflow: Workflow, io: Pick<ChatIO, 'input' | 'output'>, options: ChatOptions = {}): Promise<number> {
  const { runtime, sessionId, reply } = await startChat(workflow, options);
  write(io.output, JSON.stringify(reply));
  if (isFinished(reply)) return 0;
  await eachLine(io.input, async (line) => {
    if (line.trim() === '') return 'next';
    let turn: unknown;
    try {
      turn = JSON.parse(line);
    } catch (error) {
      write(io.output, JSON.stringify({ error: { code: 'invalid_json', message: `not JSON: ${(error as Error).message}` } }));
      return 'next';
    }
    const answer = await replyOrError(() => {
      const parsed = parseTurn(turn);
      if (!parsed.success) throw new InvalidTurnError(parsed.message);
      return runtime.turn(sessionId, parsed.data);
    });
    write(io.output, JSON.stringify(answer));
    return 'error' in answer || !isFinished(answer) ? 'next' : 'stop';
  });
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

/**
 * How a reply looks in a terminal: the whole message, its Markdown rendered
 * (ANSI styles when `color`), then the buttons as numbered choices.
 */
export function formatReply(reply: ReplyEnvelope, color = false): string {
  const out = [renderMarkdown(reply.message, { ansi: color })];
  if (reply.buttons && takesTypedAnswer(reply)) out.push('', ...reply.buttons.map((b) => `  ${b.label} (type "${b.value}")`));
  else if (reply.buttons) out.push('', ...reply.buttons.map((b, i) => `  ${i + 1}) ${b.label}`));
  if (isFinished(reply))
    out.push('', `── finished: ${reply.completion.reason.replaceAll('_', ' ')}${reply.completion.readyForHandoff ? ' (ready for handoff)' : ''} ──`);
  return out.join('\n');
}

/**
 * A question that takes a typed answer (an amount, a count, a name) and offers
 * only buttons that are not answers: "Skip", "Keep" (the previous answer).
 * A number typed there is the answer ("1" for 1 EUR), so those buttons are not
 * numbered; their values typed as words ("skip", "keep") do what they do.
 */
function takesTypedAnswer(reply: ReplyEnvelope): boolean {
  return (reply.buttons ?? []).length > 0 && reply.buttons!.every((b) => b.value === SKIP_VALUE || b.value === KEEP_VALUE);
}

/** What a typed line means: a number picks a button (not where it is a typed answer), anything else is text. */
export function lineToTurn(line: string, reply: ReplyEnvelope): Turn {
  const choice = takesTypedAnswer(reply) ? null : /^\s*(\d+)\s*$/.exec(line);
  const button = choice && reply.buttons?.[Number(choice[1]) - 1];
  return button ? { button: button.value } : { text: line };
}

/** `gateflow chat <workflow>`: a chat in the terminal, until the conversation is finished or the input ends. */
export async function chatInteractive(workflow: Workflow, io: ChatIO, options: ChatOptions = {}): Promise<number> {
  const started = await startChat(workflow, options);
  let reply = started.reply;
  const color = io.color ?? false;
  const prompt = () => io.interactive && io.output.write('> ');
  /** A reply, with how to answer for someone else when it waits for them. */
  const show = (text: string) => {
    const hint = isFinished(reply) ? null : waitingHint(reply);
    write(io.output, hint ? `${text}\n\n${hint}` : text);
  };
  write(io.output, `${workflow.title ?? workflow.id} (type a number to press a button, or answer in your own words; /help for commands)\n\n`);
  show(formatReply(reply, color));
  if (isFinished(reply)) return 0;
  prompt();
  await eachLine(io.input, async (line) => {
    if (line.trim() === '') {
      prompt();
      return 'next';
    }
    const command = parseChatCommand(line);
    try {
      if (command) {
        const done = await runChatCommand(command, started.runtime, started.sessionId, color);
        if (done.reply) reply = done.reply;
        if (done.reply) show(`\n${done.text}`);
        else write(io.output, `\n${done.text}`);
      } else {
        reply = await started.runtime.turn(started.sessionId, lineToTurn(line, reply));
        show(`\n${formatReply(reply, color)}`);
      }
    } catch (error) {
      if (!(error instanceof GateflowError) || error.status >= 500) throw error;
      write(io.output, error.publicMessage);
      prompt();
      return 'next';
    }
    if (isFinished(reply)) return 'stop';
    prompt();
    return 'next';
  });
  return 0;
}
