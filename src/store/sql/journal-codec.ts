import { deflateRawSync, inflateRawSync } from 'node:zlib';
import type { ReplyEnvelope } from '../../workflow/reply.js';
import type { StepTrace } from '../types.js';

/**
 * How a SQL store keeps a journal entry's reply and trace: the JSON text of
 * both, deflated, most often against the session's previous entry as the
 * dictionary. A turn's reply repeats most of the one before it (the envelope,
 * the answers so far, the questions a summary quotes), so an entry costs what
 * changed, not the whole reply again; read back it is the same JSON, key for key.
 *
 * A body's first byte says how to inflate it: {@link KEYFRAME} alone, or
 * {@link CHAINED} with the previous entry's text. Every {@link KEYFRAME_EVERY}
 * entries is a keyframe, so that a page of history starts inflating at most
 * that many entries back; a store that does not remember the previous entry
 * (another process wrote it, a restart) writes a keyframe too.
 */
export const KEYFRAME = 0;
export const CHAINED = 1;
export const KEYFRAME_EVERY = 16;

// A 4 KB window: a reply and trace rarely exceed it, and zlib sets up far less for it than for 32 KB.
const ZLIB = { windowBits: 12, memLevel: 5, level: 6 } as const;

/** Whether entry `seq` must be a keyframe whatever the store remembers. */
export const isKeyframeSeq = (seq: number) => seq % KEYFRAME_EVERY === 1;

/** The seq of the keyframe at or before `seq`: where inflating must start to reach it. */
export const keyframeAtOrBefore = (seq: number) => Math.max(1, seq - ((seq - 1) % KEYFRAME_EVERY));

export interface EncodedEntry {
  body: Uint8Array;
  /** The JSON text the body holds: the dictionary of the next entry. */
  text: string;
}

/** Encodes an entry; against `previous` (the previous entry's text) unless null. */
export function encodeEntry(reply: ReplyEnvelope, trace: StepTrace, previous: string | null): EncodedEntry {
  const text = JSON.stringify([reply, trace]);
  const input = Buffer.from(text);
  const deflated = previous === null ? deflateRawSync(input, ZLIB) : deflateRawSync(input, { ...ZLIB, dictionary: Buffer.from(previous) });
  const body = new Uint8Array(deflated.length + 1);
  body[0] = previous === null ? KEYFRAME : CHAINED;
  body.set(deflated, 1);
  return { body, text };
}

/** Decodes a body; `previous` is the previous entry's text (needed by a chained body only). */
export function decodeEntry(body: Uint8Array, previous: string | null, where: string): { reply: ReplyEnvelope; trace: StepTrace; text: string } {
  const kind = body[0];
  if (kind !== KEYFRAME && kind !== CHAINED) throw new Error(`${where}: unknown journal encoding ${kind}`);
  if (kind === CHAINED && previous === null) throw new Error(`${where}: a chained journal entry was read without the entry before it`);
  const data = body.subarray(1);
  const text = (kind === CHAINED ? inflateRawSync(data, { windowBits: ZLIB.windowBits, dictionary: Buffer.from(previous!) }) : inflateRawSync(data, { windowBits: ZLIB.windowBits })).toString();
  const [reply, trace] = JSON.parse(text) as [ReplyEnvelope, StepTrace];
  return { reply, trace, text };
}

/**
 * What a store remembers of the entries it wrote: the last entry's text per
 * session (at most `capacity` sessions, least recently written dropped first),
 * so that the next entry can be chained to it.
 */
export class LastEntries {
  private readonly entries = new Map<string, { seq: number; text: string }>();
  constructor(
    private readonly capacity = 1000,
    // A text this long is not kept: the next entry is a keyframe.
    private readonly maxText = 16_384,
  ) {}

  /** The text of entry `seq` of the session, if it is the last one remembered. */
  get(sessionId: string, seq: number): string | null {
    const entry = this.entries.get(sessionId);
    return entry && entry.seq === seq ? entry.text : null;
  }

  set(sessionId: string, seq: number, text: string): void {
    this.entries.delete(sessionId);
    if (text.length > this.maxText) return;
    this.entries.set(sessionId, { seq, text });
    if (this.entries.size > this.capacity) this.entries.delete(this.entries.keys().next().value!);
  }
}
