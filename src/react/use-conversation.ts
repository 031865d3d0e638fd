import { useActorRef, useSelector } from '@xstate/react';
import { useCallback, useEffect, useMemo, useState } from 'react';
import { fromPromise, type InspectionEvent } from 'xstate';
import {
  chatSessionMachine,
  type SessionResumed,
  type SessionStarted,
  type TranscriptEntry,
} from '../../machines/chat-session.js';
import type { ChatReply } from '../../machines/chat-session.js';
import type { InputValue } from '../inputs/coerce.js';
import type { OpenInput } from '../inputs/gate.js';
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

/**
 * What the person sees the conversation doing: `waiting` is a session that
 * waits for inputs only others can give (a manager's approval); one that
 * waits for the person's own is `idle`, with its gates in `inputs`.
 */
export type ConversationStatus = 'starting' | 'idle' | 'waiting' | 'sending' | 'failed' | 'finished';

export interface Conversation {
  status: ConversationStatus;
  sessionId: string | null;
  reply: ChatReply | null;
  transcript: TranscriptEntry[];
  buttons: Button[] | null;
  /** The session's open input gates (the person's and others'); none once it is finished. */
  inputs: OpenInput[];
  /** The server's refusal of the last value given for a gate (which stays open). */
  inputError: { gateId: string; message: string } | null;
  error: { code: string; message: string } | null;
  sendText(text: string): void;
  press(button: Button): void;
  /** Answers one of the person's gates; `label` is how the transcript shows the answer. */
  answer(gateId: string, value: InputValue, label: string): void;
  retry(): void;
  restart(): void;
  /**
   * Ends the session as cancelled (its gates close: whoever was asked is no
   * longer asked), then reads it again to show how it ended. Rejects with
   * the transport's error when the server could not be told.
   */
  cancel(): Promise<void>;
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
        answerInput: fromPromise<ChatReply, { gateId: string; value: InputValue }>(({ input }) => transport.answer(input.gateId, input.value)),
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
    if (s.matches('sending') || s.matches('answering')) return 'sending';
    // Reading the session again (someone else moved it) is no reason to stop the person.
    if (s.matches('ready') || s.matches('refreshing')) return waitsForOthers(s.context.reply) ? 'waiting' : 'idle';
    return 'starting';
  });
  const sessionId = useSelector(actorRef, (s) => s.context.sessionId);
  const reply = useSelector(actorRef, (s) => s.context.reply);
  const transcript = useSelector(actorRef, (s) => s.context.transcript);
  const error = useSelector(actorRef, (s) => s.context.error);
  const inputError = useSelector(actorRef, (s) => s.context.inputError);

  // While the session waits for inputs, others may move it: follow its events. Each
  // (re)connection reads the session again, as events sent before it may be missed.
  const following = sessionId !== null && reply?.status === 'waiting';
  useEffect(() => {
    if (!following) return;
    return transport.events((event) => actorRef.send({ type: 'refresh', event }), { sessionId }, { onOpen: () => actorRef.send({ type: 'refresh' }) });
  }, [transport, actorRef, sessionId, following]);

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
  const answer = useCallback(
    (gateId: string, value: InputValue, label: string) => actorRef.send({ type: 'answer', gateId, value, label }),
    [actorRef],
  );
  const retry = useCallback(() => actorRef.send({ type: 'retry' }), [actorRef]);
  const inputs = useMemo(() => (status === 'finished' ? [] : (reply?.inputs ?? [])), [status, reply]);
  const restart = useCallback(() => actorRef.send({ type: 'restart' }), [actorRef]);
  const cancel = useCallback(async () => {
    if (sessionId === null) return;
    try {
      await transport.cancel(sessionId);
    } catch (error) {
      // Ended meanwhile (answered, timed out, cancelled in another tab): nothing left to cancel, the read below shows how.
      if ((error as { code?: unknown }).code !== 'session_finished') throw error;
    } finally {
      actorRef.send({ type: 'refresh' });
    }
  }, [transport, actorRef, sessionId]);

  return {
    status,
    sessionId,
    reply,
    transcript,
    buttons: status === 'idle' ? (reply?.buttons ?? null) : null,
    inputs,
    inputError,
    error,
    sendText,
    press,
    answer,
    retry,
    restart,
    cancel,
  };
}

/** A session waiting for inputs none of which the person in the conversation gives. */
export function waitsForOthers(reply: ChatReply | null): boolean {
  return reply?.status === 'waiting' && !(reply.inputs ?? []).some((g) => g.to === null);
}
