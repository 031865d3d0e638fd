import { z } from 'zod';
import { classifyConfirmation } from '../../extract/match-confirmation.js';
import { nodeFields, text } from '../fields.js';
import type { NodeKind, Transition } from './kind.js';
import { flowAssign } from './shared.js';
import { UNKNOWN_BUTTON, button, text as textEvent } from './test-events.js';

/** A review of the answers: confirmed, or sent back to edit them. */
export const ConfirmationNodeSchema = z.strictObject({
  kind: z.literal('confirmation'),
  ...nodeFields,
  prompt: text.optional(),
  confirmLabel: text.default('Looks Good'),
  editLabel: text.default('Edit Answers'),
});

export type ConfirmationNode = z.infer<typeof ConfirmationNodeSchema>;

/** Which confirmation button a pressed value means: its value or its label, any case. */
function buttonMeans(node: ConfirmationNode, pressed: string): 'confirm' | 'edit' | null {
  const v = pressed.trim().toLowerCase();
  if (v === 'confirm' || v === node.confirmLabel.toLowerCase()) return 'confirm';
  if (v === 'edit' || v === node.editLabel.toLowerCase()) return 'edit';
  return null;
}

/**
 * A confirmation: shows the summary with a confirm and an edit button. A
 * confirmation (button or text) leaves on `confirmed`; the edit button, or any
 * text that is not a confirmation (the seed's rule), leaves on `edit`, keeping
 * aside the answers the flow will ask again.
 */
export const confirmation: NodeKind<typeof ConfirmationNodeSchema> = {
  kind: 'confirmation',
  schema: ConfirmationNodeSchema,
  outcomes: ['confirmed', 'edit'],
  checkEdges(_node, c) {
    c.need('confirmed', 'to continue on');
    c.need('edit', 'to go back to');
  },

  guards: ({ lookups: { place, pressed } }) => ({
    buttonIsConfirm: ({ event }, params: { node: string }) => {
      const value = pressed(event);
      return value !== null && buttonMeans(place(params.node).node as ConfirmationNode, value) === 'confirm';
    },
    buttonIsEdit: ({ event }, params: { node: string }) => {
      const value = pressed(event);
      return value !== null && buttonMeans(place(params.node).node as ConfirmationNode, value) === 'edit';
    },
    textConfirms: ({ event }, params: { node: string }) =>
      event.type === 'user.text' && classifyConfirmation(event.text, place(params.node).node as ConfirmationNode) === 'confirm',
  }),

  actions: () => ({
    /** Editing: the answers the flow will ask again (those after the edit edge's target) are kept aside as previous ones. */
    startEditing: flowAssign(({ context }, params: { keys: string[] }) => {
      const again = new Set(params.keys);
      const kept = Object.fromEntries(Object.entries(context.answers).filter(([key]) => !again.has(key)));
      const asked = Object.fromEntries(Object.entries(context.answers).filter(([key]) => again.has(key)));
      return { previousAnswers: { ...context.previousAnswers, ...asked }, answers: kept, notice: null, invalid: null };
    }),
  }),

  state(p, c) {
    const { route } = c;
    const params = { node: p.id };
    // What editing clears: the answers of every question (and action) reachable from where the edit edge goes.
    const editing = (t: Transition) => {
      const target = (t.target ?? '').replace(`#${c.doc.id}.`, '');
      return { type: 'startEditing', params: { keys: c.answersFrom(target) } };
    };
    const on = (guard: string) => ({ type: guard, params });
    return {
      tags: ['confirmation'],
      ...c.traced(p),
      on: {
        'user.button': [
          ...route(p, 'confirmed', on('buttonIsConfirm')),
          ...route(p, 'edit', on('buttonIsEdit')).map((t) => ({ ...t, actions: [editing(t), ...(t.actions ?? [])] })),
          { actions: [{ type: 'noteNotUnderstood', params: { place: null } }] },
        ],
        // The seed's rule: anything that is not a confirmation is a wish to edit.
        'user.text': [
          ...route(p, 'confirmed', on('textConfirms')),
          ...route(p, 'edit').map((t) => ({ ...t, actions: [editing(t), ...(t.actions ?? [])] })),
        ],
      },
    };
  },

  reply(node, { graph, context, notUnderstood, because, messages }) {
    const statement = messages.problemStatement(graph, context.answers);
    return {
      message: notUnderstood ? messages.NOT_UNDERSTOOD_MESSAGE : because + messages.summaryMessage(graph, node, context.answers),
      buttons: [
        { label: node.confirmLabel, value: 'confirm' },
        { label: node.editLabel, value: 'edit' },
      ],
      buttonContext: 'gate_confirmation',
      artifacts: [
        {
          type: 'PROBLEM_STATEMENT',
          problemStatement: statement,
          answers: Object.fromEntries(Object.entries(context.answers).map(([k, a]) => [k, String(a.value)])),
        },
      ],
      completion: { isComplete: false, reason: 'awaiting_user_confirmation', readyForHandoff: false },
    };
  },

  /** Confirm and edit, as buttons and as text, and an unknown button. */
  testEvents: () => [button('confirm'), button('edit'), button(UNKNOWN_BUTTON), textEvent("Yes, that's correct"), textEvent("That's wrong")],
};
