/**
 * Real replies for the stories: the example flow is compiled and driven with the
 * conversation API in the page (the offline matcher, no server), so every state
 * story shows exactly what the runtime answers, not hand-typed copies.
 */
import type { TranscriptEntry } from '../machines/chat-session.js';
import patientIntakeJson from '../machines/flows/patient-intake.json' with { type: 'json' };
import { parseFlowValue } from '../src/flow/parse.js';
import type { Conversation, ConversationStatus } from '../src/react/use-conversation.js';
import { startConversation } from '../src/flow/conversation.js';
import type { Button, Reply } from '../src/flow/reply.js';

export const patientIntake = parseFlowValue(patientIntakeJson, 'machines/flows/patient-intake.json');

/** A person's turn as the widget sends it: typed text or a pressed button (by label). */
export type Step = { text: string } | { button: string };

/** Where a scripted conversation got to: the last reply and the transcript the widget would show. */
export interface Played {
  sessionId: string;
  reply: Reply;
  transcript: TranscriptEntry[];
}

/**
 * Plays `steps` against the example flow and returns the last reply with the
 * transcript built as the widget's chat-session machine builds it (`a0` for
 * the first reply, `u<turnId>` / `a<turnId>` for each turn after it).
 */
export async function playIntake(steps: Step[]): Promise<Played> {
  const conversation = startConversation(patientIntake, { sessionId: 'story-session' });
  try {
    let reply = conversation.reply();
    const transcript: TranscriptEntry[] = [{ id: 'a0', role: 'assistant', text: reply.message }];
    for (const [i, step] of steps.entries()) {
      const turnId = `t${i + 1}`;
      let label: string;
      if ('text' in step) {
        label = step.text;
        reply = await conversation.send({ text: step.text, turnId });
      } else {
        const button = reply.buttons?.find((b) => b.label === step.button);
        if (!button) throw new Error(`no button "${step.button}" in the reply to step ${i} (${reply.message})`);
        label = button.label;
        reply = await conversation.send({ button: button.value, turnId });
      }
      transcript.push({ id: `u${turnId}`, role: 'user', text: label }, { id: `a${turnId}`, role: 'assistant', text: reply.message });
    }
    return { sessionId: conversation.sessionId, reply, transcript };
  } finally {
    conversation.stop();
  }
}

/** A turn the person has sent whose reply has not come (yet): shown while sending, or when it failed. */
export function withPendingTurn(played: Played, text: string): Played {
  return { ...played, transcript: [...played.transcript, { id: 'upending', role: 'user', text }] };
}

export interface ConversationHandlers {
  sendText: (text: string) => void;
  press: (button: Button) => void;
  retry: () => void;
  restart: () => void;
  /** Answers a gate (the stories with input gates); nothing otherwise. */
  answer?: Conversation['answer'];
  /** Cancels the session (the stories with input gates); nothing otherwise. */
  cancel?: Conversation['cancel'];
}

/**
 * The `Conversation` that `useConversation` would return in this state: buttons
 * only while idle, as the hook gives them.
 */
export function conversationOf(
  played: Played,
  status: ConversationStatus,
  handlers: ConversationHandlers,
  error: Conversation['error'] = null,
): Conversation {
  return {
    status,
    sessionId: played.sessionId,
    reply: played.reply,
    transcript: played.transcript,
    buttons: status === 'idle' ? played.reply.buttons : null,
    inputs: status === 'finished' ? [] : (played.reply.inputs ?? []),
    inputError: null,
    error,
    answer: () => {},
    cancel: async () => {},
    ...handlers,
  };
}
