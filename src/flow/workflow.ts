import type { AnyActorLogic, AnyMachineSnapshot, Snapshot } from 'xstate';
import { buildReply } from './build-reply.js';
import { migrateSnapshot } from './migrate-snapshot.js';
import { defaultTurnEvent, statusOf } from '../workflow/define.js';
import type { Workflow } from '../workflow/types.js';
import type { Outline } from '../viz/drawing.js';
import { compileFlow, type FlowMachine } from './compile.js';
import { initialFlowContext, type FlowContext } from './context.js';
import { flowGraph } from './graph.js';
import { flowOutline } from './outline.js';
import { parseFlowValue } from './parse.js';
import type { Reply } from './reply.js';
import type { FlowDocument, FlowVersion } from './schema.js';

export interface FlowWorkflowOptions {
  /** Today's date for date answers; the clock when absent (tests fix it). */
  today?: () => Date;
}

/** Workflows by document object and clock: a document is checked and compiled once. */
const cache = new WeakMap<FlowDocument, Map<(() => Date) | undefined, Workflow<Reply>>>();

/**
 * A flow document as a workflow: checked, compiled once, its replies built
 * from the flow and the snapshot, its old snapshots migrated as the document's
 * `migrations` say.
 */
export function flowWorkflow(doc: FlowDocument, options: FlowWorkflowOptions = {}): Workflow<Reply> {
  let byClock = cache.get(doc);
  if (!byClock) cache.set(doc, (byClock = new Map()));
  let workflow = byClock.get(options.today);
  if (!workflow) byClock.set(options.today, (workflow = compileWorkflow(doc, options)));
  return workflow;
}

function compileWorkflow(doc: FlowDocument, options: FlowWorkflowOptions): Workflow<Reply> {
  // Replies read the flow as checked and completed with defaults, as the machine does.
  const checked = parseFlowValue(doc, doc.id);
  const graph = flowGraph(checked);
  const base = compileFlow(checked, options.today ? { today: options.today } : {});
  // The machine with a host's actors, once per set of actors (a runtime keeps one).
  const provided = new WeakMap<Record<string, AnyActorLogic>, FlowMachine>();
  // The flow as written, for the drawings: built the first time it is asked for.
  let outline: Outline | undefined;
  return {
    id: checked.id,
    version: checked.version,
    title: checked.title ?? null,
    machine: ({ actors }) => {
      if (Object.keys(actors).length === 0) return base;
      let machine = provided.get(actors);
      if (!machine) provided.set(actors, (machine = base.provide({ actors }) as FlowMachine));
      return machine;
    },
    input: (context) => (context ? { context } : {}),
    startContext: (snapshot) => {
      const host = (snapshot as { context?: { host?: Record<string, unknown> } }).context?.host;
      return host && Object.keys(host).length > 0 ? host : undefined;
    },
    toEvent: defaultTurnEvent,
    reply: (snapshot: AnyMachineSnapshot, sessionId: string): Reply => {
      // The built reply is new: its status is added, not spread into another copy.
      const reply = buildReply(graph, snapshot as AnyMachineSnapshot & { context: FlowContext }, sessionId) as Reply;
      reply.status = statusOf(snapshot);
      return reply;
    },
    restore: withContextDefaults,
    migrate: (fromVersion, snapshot) => migrateSnapshot(checked, fromVersion as FlowVersion, snapshot),
    outline: () => (outline ??= flowOutline(checked)),
  };
}

/**
 * A stored snapshot's context with every field this version of the context
 * has: snapshots saved before a field existed (before typed answers, say)
 * restore with its initial value.
 */
function withContextDefaults(snapshot: Snapshot<unknown>): Snapshot<unknown> {
  const stored = snapshot as { context?: unknown };
  if (typeof stored !== 'object' || stored === null || typeof stored.context !== 'object' || stored.context === null) return snapshot;
  return { ...stored, context: { ...initialFlowContext(), ...stored.context } } as unknown as Snapshot<unknown>;
}
