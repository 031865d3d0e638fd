import type { Runtime } from '../runtime/runtime.js';
import type { ReplyEnvelope } from '../workflow/reply.js';
import { formatAnswered, formatInputs } from './inputs.js';

/**
 * The commands a terminal chat takes beside answers (the seed's REPL):
 * `/inputs` lists the session's open gates, `/input <gate> <value>` answers
 * one (by its id or its name: `/input approved yes`), `/cancel` ends the
 * session. A chat's store lives in its process, so a gate addressed to
 * someone else (a manager) can only be answered here. Any other line is an
 * answer, even one starting with "/" that names no command.
 */

export const CHAT_COMMANDS_HELP = [
  'commands: /inputs  list the open input gates',
  '          /input <gate> <value>  answer one, by its id or name (/input approved yes)',
  '          /cancel  cancel the request',
].join('\n');

export type ChatCommand = { kind: 'inputs' } | { kind: 'input'; gate: string; value: string } | { kind: 'cancel' } | { kind: 'help' } | { kind: 'usage'; message: string };

/** The command a line is, or null when it is an answer. */
export function parseChatCommand(line: string): ChatCommand | null {
  const match = /^\s*\/(inputs|input|cancel|help)(?:\s+(.*))?$/s.exec(line);
  if (!match) return null;
  const rest = (match[2] ?? '').trim();
  switch (match[1]) {
    case 'inputs':
      return { kind: 'inputs' };
    case 'cancel':
      return { kind: 'cancel' };
    case 'help':
      return { kind: 'help' };
    default: {
      const parts = /^(\S+)\s+(.+)$/s.exec(rest);
      return parts ? { kind: 'input', gate: parts[1]!, value: parts[2]!.trim() } : { kind: 'usage', message: 'usage: /input <gate> <value> (the gate by its id or name; /inputs lists them)' };
    }
  }
}

/** What a command did: text to show, and the session's new reply when it moved. */
export interface CommandResult {
  text: string;
  reply?: ReplyEnvelope;
}

/** Runs a command on the chat's session. Refusals (an unknown gate, a value the gate does not take) throw the runtime's errors. */
export async function runChatCommand(command: ChatCommand, runtime: Runtime, sessionId: string, color: boolean): Promise<CommandResult> {
  switch (command.kind) {
    case 'help':
      return { text: CHAT_COMMANDS_HELP };
    case 'usage':
      return { text: command.message };
    case 'inputs': {
      const open = await runtime.inputs(undefined, { sessionId });
      return { text: open.length === 0 ? 'no open input gates' : formatInputs(open, new Date()) };
    }
    case 'cancel': {
      const reply = await runtime.cancel(sessionId);
      return { text: formatAnswered(reply, color), reply };
    }
    case 'input': {
      const open = await runtime.inputs(undefined, { sessionId });
      // A name is easier to type than an id; an id of a gate no longer open goes to the runtime, which says why.
      const byName = open.filter((g) => g.name === command.gate);
      const gateId = byName.length === 1 ? byName[0]!.gateId : command.gate;
      const reply = await runtime.answer(gateId, command.value);
      return { text: formatAnswered(reply, color), reply };
    }
  }
}

/** The line shown under a reply that waits for someone else: how to answer for them here. */
export function waitingHint(reply: ReplyEnvelope): string | null {
  const others = (reply.inputs ?? []).filter((g) => g.to !== null);
  if (others.length === 0) return null;
  return `(this chat's session lives in this terminal: answer for them with /input <gate> <value>, e.g. /input ${others[0]!.name} …; /inputs lists the gates)`;
}
