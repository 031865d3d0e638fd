import type { Snapshot, StateValue } from 'xstate';
import { PATHS_ACTOR_ID } from './compile.js';
import { initialFlowContext, type FlowContext, type Answer } from './context.js';
import { flowGraph } from './graph.js';
import { kindOf } from './nodes/index.js';
import type { FlowDocument, FlowNode, FlowVersion } from './schema.js';
import { IncompatibleSnapshotError } from '../runtime/errors.js';

interface StoredMachineSnapshot {
  status: string;
  value: unknown;
  context: FlowContext;
  [key: string]: unknown;
}

/**
 * Maps a snapshot saved with an earlier version of `flow` onto its current
 * version, as the flow's `migrations` declare (renamed or removed node ids).
 * Refuses with {@link IncompatibleSnapshotError} when the flow declares no
 * migration from that version or the snapshot is not a machine snapshot.
 */
export function migrateSnapshot(flow: FlowDocument, fromVersion: FlowVersion, snapshot: Snapshot<unknown>): Snapshot<unknown> {
  const migration = flow.migrations?.find((m) => String(m.from) === String(fromVersion));
  if (!migration)
    throw new IncompatibleSnapshotError(
      `incompatible snapshot: saved with ${flow.id}@${fromVersion}, which is no longer registered, and ${flow.id}@${flow.version} declares no migration from it`,
    );
  const stored = snapshot as unknown as StoredMachineSnapshot;
  if (typeof stored !== 'object' || stored === null || typeof stored.context !== 'object' || stored.value === undefined)
    throw new IncompatibleSnapshotError(`incompatible snapshot: not a snapshot of flow ${flow.id}`);

  const graph = flowGraph(flow);
  const rename = (id: string) => migration.nodes[id] ?? id;
  const oldNode = typeof stored.value === 'string' ? stored.value : Object.keys(stored.value as object)[0] ?? '';
  const nodeId = rename(oldNode);
  const node = graph.node(nodeId);
  if (!node)
    throw new IncompatibleSnapshotError(
      `incompatible snapshot: state "${oldNode}" does not exist in ${flow.id}@${flow.version} and the migration from ${fromVersion} does not map it`,
    );
  // Each kind says where a snapshot resumes in it (a question waiting for an answer, an
  // action running again, a subgraph call at its entry); anything else is its node id.
  const resume = (n: FlowNode, depth = 0): StateValue =>
    kindOf(n).resume?.(n, {
      graph,
      resumeIn: (ref) => {
        const sub = graph.scope(ref);
        return sub && depth < 32 ? resume(sub.entry, depth + 1) : undefined;
      },
    }) ?? n.id;
  const value = resume(node);

  const answers = (all: Record<string, Answer>) =>
    Object.fromEntries(
      Object.entries(all)
        .map(([k, a]) => [rename(k), a] as const)
        .filter(([k]) => graph.question(k) !== undefined),
    );
  const context: FlowContext = {
    ...initialFlowContext(),
    ...stored.context,
    invalid: null,
    attempts: {},
    answers: answers(stored.context.answers ?? {}),
    previousAnswers: answers(stored.context.previousAnswers ?? {}),
    stoppedBy: stored.context.stoppedBy ? rename(stored.context.stoppedBy) : null,
    pendingText: null,
    // Skipped questions and what a correction changed name answer keys: renamed, and those the new version lacks dropped.
    ...(stored.context.skipped && { skipped: stored.context.skipped.map(rename).filter((k) => graph.question(k) !== undefined) }),
    ...(stored.context.changed && { changed: null }),
  };
  // Path selection (the only child that outlives a turn) keeps its votes.
  const children = stored.children as Record<string, unknown> | undefined;
  const kept = children?.[PATHS_ACTOR_ID] !== undefined && flow.paths ? { [PATHS_ACTOR_ID]: children[PATHS_ACTOR_ID] } : {};
  return { ...stored, value, context, children: kept } as unknown as Snapshot<unknown>;
}
