import type { AnswerSource, AnswerValue } from './context.js';
import type { EdgeOutcome, FlowNodeKind } from './schema.js';

/**
 * Structured events a compiled flow emits (`actor.on('*', ...)`): node
 * entries and exits, guard outcomes, committed and refused answers, actions,
 * path votes. `gateflow chat --trace` writes them as JSON lines; golden
 * traces in tests compare them.
 *
 * `node` is the node's place in the flow: its id as the author wrote it,
 * prefixed by the ids of the subgraph nodes that called it (`led.court_size`;
 * with dotted ids, `sg.led.q.court_size`). Never XState's escaped form.
 */
export type FlowTraceEvent =
  | { type: 'node.enter'; node: string; kind: FlowNodeKind }
  | { type: 'node.exit'; node: string; kind: FlowNodeKind }
  /** The guards tried on leaving `node` on `outcome`, in order, up to the one taken. */
  | { type: 'guard.evaluated'; node: string; outcome: EdgeOutcome; guards: { guard: string; result: boolean }[]; target: string }
  /** More than one guard held: the first was taken (declared order), the others are named. */
  | { type: 'guard.ambiguous'; node: string; outcome: EdgeOutcome; taken: string; alsoTrue: string[] }
  | { type: 'answer.committed'; node: string; key: string; value: AnswerValue; source: AnswerSource }
  | { type: 'answer.skipped'; node: string; key: string; reason: 'not_applicable' | 'optional' | 'answered' | 'exclusive' }
  /** A refused typed answer: the failed answers in a row so far, and the question's budget (its `maxAttempts`, the flow's, or the default). */
  | { type: 'validation.failed'; node: string; key: string; message: string; attempt: number; maxAttempts: number }
  | { type: 'action.done'; node: string; actor: string; assigned: string[] }
  | { type: 'action.failed'; node: string; actor: string; message: string }
  | { type: 'constraint.failed'; name: string; message: string; fallback: string }
  | {
      type: 'path.vote';
      turn: number;
      path: string | null;
      confidence: number;
      outcome: string;
      votes: Record<string, number>;
      tentative: string | null;
      locked: string | null;
      rationale: string;
    };

export type FlowTraceEventType = FlowTraceEvent['type'];
