import { useCallback, useEffect, useRef, useState } from 'react';
import type { ChatReply } from '../../machines/chat-session.js';
import type { InputValue } from '../inputs/coerce.js';
import type { OpenInput } from '../inputs/gate.js';
import { TransportError, type Transport } from './transport.js';

export interface UseInputsOptions {
  transport: Transport;
  /** Only the gates of this session. */
  sessionId?: string;
  /** Only the gates of this workflow. */
  workflowId?: string;
}

export interface Inputs {
  /** The open gates the caller may answer, oldest first. */
  inputs: OpenInput[];
  /**
   * Answers one gate. Rejects with the TransportError (`invalid_input_value`
   * says what was expected, and the gate stays open; `input_closed`: someone
   * else was first). The list is read again either way.
   */
  answer(gateId: string, value: InputValue): Promise<ChatReply>;
  /** The last failure to read the list or to follow its events (null again once a read succeeds). */
  error: TransportError | null;
  /** True until the list has been read once. */
  loading: boolean;
}

/**
 * The open input gates the caller may answer (an inbox), kept up to date
 * through the transport's events stream: the list is read again when the
 * stream (re)connects and on every gate or session event that concerns it.
 * No polling of its own; reads that overlap are merged into one more.
 */
export function useInputs(options: UseInputsOptions): Inputs {
  const { transport, sessionId, workflowId } = options;
  const [inputs, setInputs] = useState<OpenInput[]>([]);
  const [error, setError] = useState<TransportError | null>(null);
  const [loading, setLoading] = useState(true);
  const reload = useRef<() => void>(() => {});

  useEffect(() => {
    let live = true;
    let reading = false;
    let again = false;
    const query = { ...(sessionId !== undefined && { sessionId }), ...(workflowId !== undefined && { workflowId }) };
    const read = async () => {
      if (reading) {
        again = true;
        return;
      }
      reading = true;
      try {
        do {
          again = false;
          try {
            const list = await transport.inputs(query);
            if (!live) return;
            setInputs(list);
            setError(null);
          } catch (e) {
            if (!live) return;
            setError(e instanceof TransportError ? e : new TransportError('network', (e as Error).message));
          }
          setLoading(false);
        } while (again && live);
      } finally {
        reading = false;
      }
    };
    reload.current = () => void read();
    setLoading(true);
    // Read now, and again on every (re)connection of the stream: what changed before it listened is not missed.
    void read();
    const stop = transport.events(() => void read(), query, {
      onOpen: () => void read(),
      onError: (e) => live && setError(e),
    });
    return () => {
      live = false;
      reload.current = () => {};
      stop();
    };
  }, [transport, sessionId, workflowId]);

  const answer = useCallback(
    async (gateId: string, value: InputValue) => {
      try {
        return await transport.answer(gateId, value);
      } finally {
        // Answered, refused or closed: the list as it is now (the event may come later, or not at all).
        reload.current();
      }
    },
    [transport],
  );

  return { inputs, answer, error, loading };
}
