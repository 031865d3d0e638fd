import { createInterface } from 'node:readline';
import type { Readable, Writable } from 'node:stream';
import type { AnyActorLogic } from 'xstate';
import type { FlowDocument } from '../flow/index.js';
import {
  ConversationFinishedError,
  InvalidTurnError,
  startConversation,
  type ConversationOptions,
  type Reply,
  type Turn,
} from '../runtime/index.js';

/** What a chat passes on to the conversation besides the extractor: action actors, a trace sink. */
export type ChatOptions = Pick<ConversationOptions, 'actors' | 'onTrace'>;

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
 * `gateflow chat <flow> --json`: the opening Reply as one JSON line, then one
 * turn per input line (`{"text": ...}` or `{"button": ...}`) and one Reply per
 * line. A line that is not a valid turn gets `{"error": {code, message}}` and
 * changes nothing.
 */
export async function chatJson(
  flow: FlowDocument,
  extract: AnyActorLogic,
  io: Pick<ChatIO, 'input' | 'output'>,
  options: ChatOptions = {},
): Promise<number> {
  const conversation = startConversation(flow, { extract, ...options });
  write(io.output, JSON.stringify(conversation.reply()));
  for await (const line of lines(io.input)) {
    if (line.trim() === '') continue;
    let turn: unknown;
    try {
      turn = JSON.parse(line);
    } catch (error) {
      write(io.output, JSON.stringify({ error: { code: 'invalid_json', message: `not JSON: ${(error as Error).message}` } }));
      continue;
    }
    write(io.output, JSON.stringify(await replyOrError(() => conversation.send(turn as Turn))));
  }
  conversation.stop();
  return 0;
}

async function replyOrError(send: () => Promise<Reply>): Promise<Reply | { error: { code: string; message: string } }> {
  try {
    return await send();
  } catch (error) {
    if (error instanceof InvalidTurnError) return { error: { code: 'invalid_turn', message: error.message } };
    if (error instanceof ConversationFinishedError) return { error: { code: 'conversation_finished', message: error.message } };
    throw error;
  }
}

/** How a reply looks in a terminal: the message, then the buttons as numbered choices. */
export function formatReply(reply: Reply): string {
  const out = [reply.message];
  if (reply.buttons) out.push('', ...reply.buttons.map((b, i) => `  ${i + 1}) ${b.label}`));
  if (reply.completion.isComplete)
    out.push('', `── finished: ${reply.completion.reason.replaceAll('_', ' ')}${reply.completion.readyForHandoff ? ' (ready for handoff)' : ''} ──`);
  return out.join('\n');
}

/** What a typed line means: a number picks a button, anything else is text. */
export function lineToTurn(line: string, reply: Reply): Turn {
  const choice = /^\s*(\d+)\s*$/.exec(line);
  const button = choice && reply.buttons?.[Number(choice[1]) - 1];
  return button ? { button: button.value } : { text: line };
}

/** `gateflow chat <flow>`: a chat in the terminal. */
export async function chatInteractive(flow: FlowDocument, extract: AnyActorLogic, io: ChatIO, options: ChatOptions = {}): Promise<number> {
  const conversation = startConversation(flow, { extract, ...options });
  let reply = conversation.reply();
  const prompt = () => io.interactive && io.output.write('> ');
  write(io.output, `${flow.title ?? flow.id} (type a number to press a button, or answer in your own words)\n\n`);
  write(io.output, formatReply(reply));
  prompt();
  for await (const line of lines(io.input)) {
    if (line.trim() === '') {
      prompt();
      continue;
    }
    try {
      reply = await conversation.send(lineToTurn(line, reply));
    } catch (error) {
      if (!(error instanceof InvalidTurnError)) throw error;
      write(io.output, error.message);
      prompt();
      continue;
    }
    write(io.output, `\n${formatReply(reply)}`);
    if (reply.completion.isComplete) break;
    prompt();
  }
  conversation.stop();
  return 0;
}
