import { useActorRef, useSelector } from '@xstate/react';
import { useCallback, useState } from 'react';
import { fromPromise, type InspectionEvent } from 'xstate';
import {
  chatSessionMachine,
  type SessionResumed,
  type SessionStarted,
  type TranscriptEntry,
} from '../../machines/chat-session.js';
import type { ChatReply } from '../../machines/chat-session.js';
import type { Button } from '../workflow/reply.js';
import type { Turn } from '../workflow/turn.js';
import type { Transport } from './transport.js';

export interface UseConversationOptions {
  transport: Transport;
  flowId: string;
  /** Resume this session (e.g. after a page reload) instead of starting one. */
  sessionId?: string | null;
  /** Inspection events of the widget's actors, e.g. the Stately inspector's `inspect`. */
  inspect?: (event: InspectionEvent) => void;
}

/** What the person sees the conversation doing. */
export type ConversationStatus = 'starting' | 'idle' | 'sending' | 'failed' | 'finished';

export interface Conversation {
  status: ConversationStatus;
  sessionId: string | null;
  reply: ChatReply | null;
  transcript: TranscriptEntry[];
  buttons: Button[] | null;
  error: { code: string; message: string } | null;
  sendText(text: string): void;
  press(button: Button): void;
  retry(): void;
  restart(): void;
}

const newTurnId = () => globalThis.crypto.randomUUID();

/**
 * A conversation with a flow, for a chat widget: the transcript, the current
 * reply and buttons, and a status from a small machine of its own
 * (`machines/chat-session.ts`).
 *
 * React StrictMode runs effects twice in development; the actor is started,
 * stopped and started again. Session creation is memoized per hook instance,
 * and every turn carries a turnId made when it was sent, so neither a session
 * nor a turn is ever created twice.
 */
export function useConversation(options: UseConversationOptions): Conversation {
  const { transport } = options;
  // Survives StrictMode's second effect run (state is kept), unlike the actor's invocations.
  const [once] = useState(() => ({
    // Keyed by the invoked actor: StrictMode restarts the same actor object,
    // a new entry into `creating` (a restart) makes a new one.
    starts: new WeakMap<object, Promise<SessionStarted>>(),
    turns: new Map<string, Promise<ChatReply>>(),
  }));
  const [machine] = useState(() =>
    chatSessionMachine.provide({
      actors: {
        startSession: fromPromise<SessionStarted, { flowId: string }>(({ input, self }) => {
          let started = once.starts.get(self);
          if (!started) once.starts.set(self, (started = transport.start(input.flowId)));
          return started;
        }),
        resumeSession: fromPromise<SessionResumed, { sessionId: string }>(({ input }) => transport.session(input.sessionId)),
        sendTurn: fromPromise<ChatReply, { sessionId: string; turn: Turn }>(({ input }) => {
          const turnId = input.turn.turnId!;
          let sent = once.turns.get(turnId);
          if (!sent) {
            sent = transport.turn(input.sessionId, input.turn);
            once.turns.set(turnId, sent);
            // A failed send may be retried with the same turnId: forget the failure.
            sent.catch(() => once.turns.delete(turnId));
          }
          return sent;
        }),
      },
    }),
  );
  const actorRef = useActorRef(machine, {
    input: { flowId: options.flowId, sessionId: options.sessionId ?? null },
    ...(options.inspect && { inspect: options.inspect }),
  });

  const status = useSelector(actorRef, (s): ConversationStatus => {
    if (s.matches('failed')) return 'failed';
    if (s.matches('finished')) return 'finished';
    if (s.matches('sending')) return 'sending';
    if (s.matches('ready')) return 'idle';
    return 'starting';
  });
  const sessionId = useSelector(actorRef, (s) => s.context.sessionId);
  const reply = useSelector(actorRef, (s) => s.context.reply);
  const transcript = useSelector(actorRef, (s) => s.context.transcript);
  const error = useSelector(actorRef, (s) => s.context.error);

  const sendText = useCallback(
    (text: string) => {
      if (text.trim() === '') return;
      actorRef.send({ type: 'send', turn: { text, turnId: newTurnId() }, label: text });
    },
    [actorRef],
  );
  const press = useCallback(
    (button: Button) => actorRef.send({ type: 'send', turn: { button: button.value, turnId: newTurnId() }, label: button.label }),
    [actorRef],
  );
  const retry = useCallback(() => actorRef.send({ type: 'retry' }), [actorRef]);
  const restart = useCallback(() => actorRef.send({ type: 'restart' }), [actorRef]);

  return {
    status,
    sessionId,
    reply,
    transcript,
    buttons: status === 'idle' ? (reply?.buttons ?? null) : null,
    error,
    sendText,
    press,
    retry,
    restart,
  };
}
