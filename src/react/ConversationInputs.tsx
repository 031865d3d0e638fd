import type { OpenInput } from '../inputs/gate.js';
import { deadlineInWords, roleInWords, useNow } from './deadline.js';
import { InputForm, inputLabel } from './InputForm.js';
import type { Conversation } from './use-conversation.js';

/** A gate's description holds at most this many characters (InputSpec's `description`). */
const DESCRIPTION_MAX = 500;

/** Whether the gate's description is the message: the same, or (a longer question) its first 500 characters, trimmed. */
const asks = (description: string, message: string | undefined): boolean =>
  message !== undefined && (description === message || (message.length > DESCRIPTION_MAX && message.slice(0, DESCRIPTION_MAX).trim() === description));

/**
 * A conversation's open input gates, as the person in it sees them: a form
 * for each gate addressed to them, and for the gates others answer a line
 * per role and deadline saying the conversation waits for them and for what
 * ("Waiting for a manager: Approve the refund?, Approved amount"), with the
 * deadline in words.
 */
export function ConversationInputs({ conversation, id }: { conversation: Conversation; id?: string }) {
  const now = useNow();
  const { inputs, inputError, status } = conversation;
  const mine = inputs.filter((g) => g.to === null);
  const others = inputs.filter((g) => g.to !== null);
  if (inputs.length === 0) return null;
  return (
    <div className="gf-inputs" id={id} role="group" aria-label="Answers pending">
      {mine.map((input) => {
        // A gate that asks what the last message asks (an agent's clarification): a question in the chat, answered as
        // a chat is; the question is not shown twice, and no deadline or expected form is put under it.
        const asked = input.description != null && asks(input.description, conversation.reply?.message);
        return (
          <InputForm
            key={input.gateId}
            input={input}
            busy={status === 'sending'}
            error={inputError?.gateId === input.gateId ? inputError.message : null}
            note={input.deadline && !asked ? sentence(deadlineInWords(input.deadline, now)) : undefined}
            hideLabel={asked}
            conversational={asked}
            onAnswer={(value, label) => conversation.answer(input.gateId, value, label)}
          />
        );
      })}
      {others.length > 0 && (
        <ul className="gf-waiting" aria-label="Waiting for others">
          {byWhomAndWhen(others).map((group) => (
            <li key={group[0]!.gateId}>
              <WaitingLine inputs={group} now={now} />
            </li>
          ))}
        </ul>
      )}
    </div>
  );
}

/** The gates others answer, one group per role and deadline (one line says "a manager, by tomorrow: this and that"), in order. */
function byWhomAndWhen(inputs: OpenInput[]): OpenInput[][] {
  const groups = new Map<string, OpenInput[]>();
  for (const input of inputs) {
    const key = JSON.stringify([input.to, input.deadline]);
    groups.set(key, [...(groups.get(key) ?? []), input]);
  }
  return [...groups.values()];
}

/** "Waiting for a manager: Approve the refund?, Approved amount · due in 24 hours (Wed, Nov 25, 2:05 PM)": gates of one role and deadline. */
export function WaitingLine({ inputs, now }: { inputs: OpenInput[]; now: Date }) {
  const first = inputs[0];
  if (!first) return null;
  return (
    <>
      <span className="gf-waiting-who">Waiting for {roleInWords(first.to ?? 'person')}:</span> {inputs.map(inputLabel).join(', ')}
      {first.deadline && (
        <>
          {' · '}
          <time className="gf-deadline" dateTime={first.deadline}>
            {deadlineInWords(first.deadline, now)}
          </time>
        </>
      )}
    </>
  );
}

/** "due in 3 hours (…)" → "Due in 3 hours (…)." */
export const sentence = (words: string) => `${words.charAt(0).toUpperCase()}${words.slice(1)}.`;
