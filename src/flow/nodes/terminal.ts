import { z } from 'zod';
import { EXIT_TARGET, TerminalOutcomeSchema, nodeFields, text, type TerminalOutcome } from '../fields.js';
import type { NodeKind } from './kind.js';

/** Ends the flow: handed off, stopped, or completed. */
export const TerminalNodeSchema = z.strictObject({
  kind: z.literal('terminal').describe('"terminal": an end of the flow.'),
  ...nodeFields,
  outcome: TerminalOutcomeSchema.describe('How the flow ends: "completed", "stopped" or "handoff" (to a person).'),
  /**
   * What the person reads at the end: what happened, in the flow's words
   * ("Your booking request is in: we will confirm by email to
   * {answers.email}."). May name answers (`{answers.<key>}`). A stop reached
   * on a limiting value says the question's `stopMessage` instead. A
   * general sentence when absent (messages.ts).
   */
  message: text.meta({ description: 'What the person reads at the end, in the flow\'s words; may name answers as {answers.<key>}.', examples: ['Your booking request is in.'] }).optional(),
});

export type TerminalNode = z.infer<typeof TerminalNodeSchema>;

/**
 * The output of a finished flow: how it ended. The answers stay in the
 * snapshot's context (not copied here, so a finished snapshot stays small).
 */
export interface FlowOutput {
  outcome: TerminalOutcome;
  /** The terminal node that ended the flow. */
  terminal: string;
  stoppedBy: string | null;
}

/** A terminal: a final state whose output says how the flow ended. Nothing leaves it. */
export const terminal: NodeKind<typeof TerminalNodeSchema> = {
  kind: 'terminal',
  schema: TerminalNodeSchema,
  outcomes: [],
  checkEdges(node, c) {
    if (c.inSubgraph)
      c.fail(c.at, `a subgraph cannot end the flow: leave it through "${EXIT_TARGET}" and put terminal "${node.id}" in the main flow`, { node: node.id });
  },

  state: (p, c) => ({
    type: 'final',
    tags: ['terminal'],
    ...c.traced(p),
    meta: { ...c.traced(p).meta, outcome: p.node.outcome },
    // Passed to the root's `output` in the done-state event.
    output: ({ context }): FlowOutput => ({
      outcome: p.node.outcome,
      terminal: p.node.id,
      stoppedBy: context.stoppedBy,
    }),
  }),

  reply(node, { graph, context, messages, fill }) {
    const done = { buttons: null, buttonContext: null } as const;
    if (node.outcome === 'stopped') {
      const by = context.stoppedBy ? graph.question(context.stoppedBy) : undefined;
      return {
        ...done,
        message: (by?.stopMessage !== undefined ? fill(by.stopMessage) : undefined) ?? node.message ?? messages.DEFAULT_STOP_MESSAGE,
        artifacts: [],
        completion: { isComplete: true, reason: context.stoppedBy ? 'stopped_limiting_value' : 'stopped', readyForHandoff: false },
      };
    }
    if (node.outcome === 'handoff')
      return {
        ...done,
        message: node.message ?? messages.defaultHandoffMessage(Object.keys(context.answers).length),
        artifacts: [
          {
            type: 'HANDOFF',
            flowId: graph.doc.id,
            flowVersion: graph.doc.version,
            problemStatement: messages.problemStatement(graph, context.answers),
            answers: context.answers,
          },
        ],
        completion: { isComplete: true, reason: 'handed_off', readyForHandoff: true },
      };
    return {
      ...done,
      message: node.message ?? messages.DEFAULT_COMPLETED_MESSAGE,
      artifacts: [],
      completion: { isComplete: true, reason: 'completed', readyForHandoff: false },
    };
  },
};
