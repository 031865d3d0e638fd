/**
 * Helpers shared by the flow suites and the per-kind tests (./nodes/):
 * driving a compiled flow as a raw actor with its trace, the checker's
 * fixture documents, the model-based events at a state, and fixtures more
 * than one file reads.
 */
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { expect } from 'vitest';
import { createActor, waitFor, type StateValue } from 'xstate';
import { checkFlow, type FlowIssue } from '../../src/flow/check.js';
import { BUSY_TAG, compileFlow, type CompileOptions, type FlowMachine } from '../../src/flow/compile.js';
import type { FlowContext, FlowInput } from '../../src/flow/context.js';
import { FlowDocumentError } from '../../src/flow/errors.js';
import { flowGraph } from '../../src/flow/graph.js';
import { parseFlowText, parseFlowValue } from '../../src/flow/parse.js';
import { FlowDocumentSchema, type FlowDocument, type FlowDocumentInput } from '../../src/flow/schema.js';
import type { FlowTraceEvent } from '../../src/flow/trace.js';
import type { Turn } from '../../src/workflow/turn.js';
import { MODEL_TODAY, flowTestEvents, type FlowTestEvent } from '../../src/testing/model-based.js';
import { PATIENCE_MS } from '../helpers/patience.js';

// ---------------------------------------------------------------- driving a flow (from v1-semantics.test.ts)

const flowsDir = fileURLToPath(new URL('../../machines/flows/', import.meta.url));
export const example = (name: string): FlowDocument => parseFlowText(readFileSync(`${flowsDir}${name}.json`, 'utf8'), `${name}.json`);
export const flow = (doc: FlowDocumentInput): FlowDocument => parseFlowValue(doc, doc.id);
export const roundTrip = <T>(value: T): T => JSON.parse(JSON.stringify(value)) as T;

export const TODAY = new Date('2026-11-21T12:00:00Z');

/** A compiled flow started as a raw actor, with every trace event it emits. */
export async function drive(doc: FlowDocumentInput, options: CompileOptions & { input?: FlowInput } = {}, machine?: FlowMachine) {
  const { input, ...compileOptions } = options;
  const m = machine ?? compileFlow(doc, { today: () => TODAY, ...compileOptions });
  const actor = createActor(m, { input: input ?? {} });
  const trace: FlowTraceEvent[] = [];
  actor.on('*', (e) => trace.push(e as FlowTraceEvent));
  actor.start();
  const settle = () => waitFor(actor, (s) => s.status !== 'active' || !s.hasTag(BUSY_TAG), { timeout: PATIENCE_MS });
  await settle();
  /** Sends a turn, waits until it settles, returns the events it emitted. */
  const send = async (turn: Turn): Promise<FlowTraceEvent[]> => {
    const from = trace.length;
    actor.send('button' in turn ? { type: 'user.button', value: turn.button } : { type: 'user.text', text: turn.text });
    await settle();
    return trace.slice(from);
  };
  return {
    actor,
    trace,
    send,
    text: (t: string) => send({ text: t }),
    button: (b: string) => send({ button: b }),
    get value(): StateValue {
      return actor.getSnapshot().value;
    },
    get context(): FlowContext {
      return actor.getSnapshot().context;
    },
    get status() {
      return actor.getSnapshot().status;
    },
    get output() {
      return actor.getSnapshot().output;
    },
    /** Plain values by key. */
    get answers(): Record<string, unknown> {
      return Object.fromEntries(Object.entries(actor.getSnapshot().context.answers).map(([k, a]) => [k, a.value]));
    },
  };
}

export const ofType = <T extends FlowTraceEvent['type']>(events: FlowTraceEvent[], type: T) =>
  events.filter((e): e is Extract<FlowTraceEvent, { type: T }> => e.type === type);

// ---------------------------------------------------------------- fixtures

/** Three levels of calls: main → l1 (level1) → l2 (level2) → l3 (level3); each level asks after its call returns. */
export const NESTED: FlowDocumentInput = {
  id: 'nested',
  version: 1,
  nodes: [
    { kind: 'question', id: 'topic', prompt: 'Topic?', answer: { type: 'string' } },
    { kind: 'subgraph', id: 'l1', ref: 'level1' },
    { kind: 'question', id: 'after', prompt: 'Anything else?', answer: { type: 'string' } },
    { kind: 'terminal', id: 'end', outcome: 'completed' },
  ],
  edges: [
    { from: 'topic', to: 'l1' },
    { from: 'l1', to: 'after' },
    { from: 'after', to: 'end' },
  ],
  subgraphs: {
    level1: {
      entry: 'q1',
      nodes: [
        { kind: 'question', id: 'q1', prompt: 'Level 1?', answer: { type: 'number' } },
        { kind: 'subgraph', id: 'l2', ref: 'level2' },
        { kind: 'question', id: 'q1b', prompt: 'Back at level 1?', answer: { type: 'string' } },
      ],
      edges: [
        { from: 'q1', to: 'l2' },
        { from: 'l2', to: 'q1b' },
        { from: 'q1b', to: '__exit__' },
      ],
    },
    level2: {
      entry: 'q2',
      nodes: [
        { kind: 'question', id: 'q2', prompt: 'Level 2?', answer: { type: 'number' } },
        { kind: 'subgraph', id: 'l3', ref: 'level3' },
        { kind: 'question', id: 'q2b', prompt: 'Back at level 2?', answer: { type: 'string' } },
      ],
      edges: [
        { from: 'q2', to: 'l3' },
        { from: 'l3', to: 'q2b' },
        { from: 'q2b', to: '__exit__' },
      ],
    },
    level3: {
      entry: 'q3',
      nodes: [{ kind: 'question', id: 'q3', prompt: 'Level 3?', answer: { type: 'boolean' } }],
      edges: [{ from: 'q3', to: '__exit__' }],
    },
  },
};

// ---------------------------------------------------------------- the checker's fixture (from check.test.ts)

export type Doc = FlowDocumentInput & Record<string, unknown>;
export type AnyNode = Record<string, unknown> & { id: string };
export type AnyEdge = { from: string; to: string; on?: string; guard?: string };

/** A sound flow: a category question, a number question, a terminal. checkFlow finds nothing. */
export function base(): Doc & { nodes: AnyNode[]; edges: AnyEdge[] } {
  return {
    id: 'checked',
    version: 1,
    nodes: [
      { kind: 'question', id: 'a', prompt: 'A?', answer: { type: 'category', categories: ['Yes', 'No'] } },
      { kind: 'question', id: 'n', prompt: 'How many?', answer: { type: 'number' } },
      { kind: 'terminal', id: 'end', outcome: 'completed' },
    ],
    edges: [
      { from: 'a', to: 'n' },
      { from: 'n', to: 'end' },
    ],
  } as never;
}

/** A subgraph with one string question `x`, leaving through `__exit__`. */
export function sub(): { entry: string; nodes: AnyNode[]; edges: AnyEdge[] } {
  return {
    entry: 'x',
    nodes: [{ kind: 'question', id: 'x', prompt: 'X?', answer: { type: 'string' } }],
    edges: [{ from: 'x', to: '__exit__' }],
  };
}

/** `base()` with a call of subgraph `sub` (node `s`) between `a` and `n`. */
export function withSubgraph(subgraph = sub()) {
  const d = base();
  d.nodes.splice(1, 0, { kind: 'subgraph', id: 's', ref: 'sub' });
  d.edges[0]!.to = 's';
  d.edges.push({ from: 's', to: 'n' });
  d.subgraphs = { sub: subgraph } as never;
  return d;
}

/** Every issue checkFlow reports on a document the schema accepts. */
export function issues(doc: unknown): FlowIssue[] {
  return checkFlow(FlowDocumentSchema.parse(doc));
}

export const error = (path: FlowIssue['path'], message: string, extra: Omit<FlowIssue, 'path' | 'message'> = {}): FlowIssue => ({
  path,
  message,
  ...extra,
});
export const warning = (path: FlowIssue['path'], message: string, extra: Omit<FlowIssue, 'path' | 'message' | 'severity'> = {}): FlowIssue => ({
  path,
  message,
  ...extra,
  severity: 'warning',
});

/** The document is refused; returns the pointers and messages of the refusal. */
export function refused(doc: unknown) {
  try {
    parseFlowValue(doc, 'doc.json');
  } catch (e) {
    expect(e).toBeInstanceOf(FlowDocumentError);
    // Only where and what: other fields of a problem (node, guard) are tested on checkFlow itself.
    return (e as FlowDocumentError).problems.map((p) => ({ pointer: p.pointer, message: p.message }));
  }
  throw new Error('the document was accepted');
}

// ---------------------------------------------------------------- model-based events (from model-based.test.ts)

const flowFilesDir = fileURLToPath(new URL('../../machines/flows/', import.meta.url));
/** An example flow by its file name (`led-sales.json`). */
export const load = (file: string) => parseFlowText(readFileSync(flowFilesDir + file, 'utf8'), file);
/** The events the harness derives for the state after `events` (sent from the start). */
export const eventsAt = (file: string, events: FlowTestEvent[]) => {
  const flow = load(file);
  const actor = createActor(compileFlow(flow, { today: () => MODEL_TODAY }));
  actor.start();
  for (const e of events) actor.send(e as never);
  return flowTestEvents(flowGraph(flow), actor.getSnapshot() as never);
};
export const texts = (events: FlowTestEvent[]) => events.flatMap((e) => (e.type === 'user.text' ? [e.text] : []));
