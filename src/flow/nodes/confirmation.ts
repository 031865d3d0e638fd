import { z } from 'zod';
import { asksToEdit, classifyConfirmation } from '../../extract/match-confirmation.js';
import { unasserted } from '../../extract/assertion.js';
import type { FlowContext } from '../context.js';
import { nameWords, readCorrection, type CorrectableAnswer, type CorrectionReading } from '../correction.js';
import type { FlowLookups } from '../compile-lookups.js';
import type { FlowGraph } from '../graph.js';
import { answerKey, booleanLabels, nodeFields, text } from '../fields.js';
import type { CompileContext, FlowMachineEvent, NodeKind, Transition } from './kind.js';
import { flowAssign } from './shared.js';
import { UNKNOWN_BUTTON, button, text as textEvent, type FlowTestEvent } from './test-events.js';

/** A review of the answers: confirmed, or sent back to edit them. */
export const ConfirmationNodeSchema = z.strictObject({
  kind: z.literal('confirmation').describe('"confirmation": the summary of the answers, confirmed or corrected.'),
  ...nodeFields,
  prompt: text.describe('The question under the summary; "Is this correct?" when absent.').optional(),
  confirmLabel: text.describe('The confirm button; "Looks Good" when absent.').default('Looks Good'),
  editLabel: text.describe('The edit button; "Edit Answers" when absent.').default('Edit Answers'),
});

export type ConfirmationNode = z.infer<typeof ConfirmationNodeSchema>;

/** Which confirmation button a pressed value means: its value or its label, any case. */
function buttonMeans(node: ConfirmationNode, pressed: string): 'confirm' | 'edit' | null {
  const v = pressed.trim().toLowerCase();
  if (v === 'confirm' || v === node.confirmLabel.toLowerCase()) return 'confirm';
  if (v === 'edit' || v === node.editLabel.toLowerCase()) return 'edit';
  return null;
}

/** The button that goes back from "which answer?" to the summary. */
export const BACK_TO_SUMMARY = 'back';
const REVIEWING = 'reviewing';
const CHOOSING = 'choosing';

/**
 * The optional questions the person skipped that a summary offers to answer: those its edit edges lead back through,
 * still unanswered, and not in an exclusive one-of group another answer of which is given (the flow would pass it over).
 */
export function skippedToOffer(graph: FlowGraph, keys: readonly string[], context: FlowContext): string[] {
  const exclusive = (graph.doc.constraints ?? []).filter((k) => k.exclusive && k.oneOf);
  return (context.skipped ?? []).filter(
    (key) =>
      keys.includes(key) &&
      context.answers[key] === undefined &&
      !exclusive.some((k) => k.oneOf!.includes(key) && k.oneOf!.some((other) => other !== key && context.answers[other] !== undefined)),
  );
}

/** The answers a confirmation lets the person change: the questions its edit edge leads back through, that have an answer or were skipped. */
function correctable(
  graph: FlowGraph,
  keys: readonly string[],
  context: FlowContext,
  lookups: Pick<FlowLookups, 'readAs' | 'mayRead'>,
  text: string,
): CorrectableAnswer[] {
  const skipped = skippedToOffer(graph, keys, context);
  const answered = keys.flatMap((key) => {
    const q = graph.question(key);
    const answer = context.answers[key];
    return q && (answer || skipped.includes(key)) ? [{ key, q, value: answer?.value }] : [];
  });
  // The message is looked up once for the questions it may answer; only those read it in full.
  const readable = lookups.mayRead(answered.map((a) => a.q), text);
  return answered.map(({ key, q, value }) => {
    const yesNo =
      q.answer.type === 'boolean' ||
      (q.answer.type === 'category' && q.answer.categories.every((c) => ['yes', 'no'].includes(c.trim().toLowerCase())));
    // Free text cannot be told apart from the sentence around it ("the city is wrong"): named, it is asked again.
    const read = q.answer.type === 'string' || !readable.has(q) ? () => undefined : (text: string) => lookups.readAs(q, text, context);
    return { key, names: [q.label ?? '', key, q.id], asked: q.prompt, value, yesNo, read };
  });
}

/** The answers a correction changed: those set aside when it started whose value is now another, or that are gone. */
function changesOf(before: FlowContext['previousAnswers'], after: FlowContext['answers'], corrected: string): NonNullable<FlowContext['changed']> {
  const changes: NonNullable<FlowContext['changed']> = Object.entries(before).flatMap(([key, was]) => {
    const now = after[key];
    if (now === undefined) return [{ key, from: was.value, dropped: true }];
    return now.value === was.value ? [] : [{ key, from: was.value }];
  });
  // A skipped question answered now: it had no value before.
  if (before[corrected] === undefined && after[corrected] !== undefined) changes.push({ key: corrected, from: null });
  return changes;
}

/** Params of what a confirmation's states name: the node, and the answer keys a person may change there. */
type ReviewParams = { node: string; keys: string[] };

// One reading per turn (an event is one turn's): the guards that choose the transition and the action that
// records the correction read the same message against the same context.
const readings = new WeakMap<FlowMachineEvent, CorrectionReading>();

/** How the message of `event` reads at the summary: a change of one answer, "which answer?", or unclear. */
function readingOf(graph: FlowGraph, lookups: Pick<FlowLookups, 'readAs' | 'mayRead' | 'place'>, context: FlowContext, event: FlowMachineEvent, params: ReviewParams): CorrectionReading {
  let found = readings.get(event);
  if (!found) {
    const text = event.type === 'user.text' ? event.text : '';
    found = readCorrection(text, correctable(graph, params.keys, context, lookups, text), asksToEdit(text, lookups.place(params.node).node as ConfirmationNode));
    readings.set(event, found);
  }
  return found;
}

/**
 * A confirmation: shows the summary with a confirm and an edit button.
 *
 * - A confirmation (button or text) leaves on `confirmed`.
 * - A message that names an answer and gives it a new value ("make it 14
 *   guests") changes that answer: the flow goes back along the `edit` edge,
 *   keeps every answer it passes, answers the named question with the message
 *   (read, validated and checked for limiting values as when it was asked)
 *   and comes back here. Naming an answer without a readable value asks that
 *   question again (its previous value offered as "Keep").
 * - "Edit" (button or words) asks which answer to change (`choosing`), one
 *   button per answer.
 * - Anything else is not understood: the summary is asked about again.
 */
export const confirmation: NodeKind<typeof ConfirmationNodeSchema> = {
  kind: 'confirmation',
  schema: ConfirmationNodeSchema,
  outcomes: ['confirmed', 'edit'],
  checkEdges(_node, c) {
    c.need('confirmed', 'to continue on');
    c.need('edit', 'to go back to');
  },

  guards: ({ graph, lookups }) => {
    const { place, pressed } = lookups;
    const node = (id: string) => place(id).node as ConfirmationNode;
    const reading = (context: FlowContext, event: FlowMachineEvent, params: ReviewParams) => readingOf(graph, lookups, context, event, params);
    return {
      buttonIsConfirm: ({ event }, params: { node: string }) => {
        const value = pressed(event);
        return value !== null && buttonMeans(node(params.node), value) === 'confirm';
      },
      buttonIsEdit: ({ event }, params: { node: string }) => {
        const value = pressed(event);
        return value !== null && buttonMeans(node(params.node), value) === 'edit';
      },
      /** A yes in words; said sarcastically ("yeah right", "sure, as if", "yes 🙄") it is no confirmation (a laugh beside it is). */
      textConfirms: ({ event }, params: { node: string }) =>
        event.type === 'user.text' && classifyConfirmation(event.text, node(params.node)) === 'confirm' && unasserted(event.text) !== 'sarcasm',
      /** The message changes one named answer, or names one to ask again. */
      textCorrects: ({ context, event }, params: ReviewParams) =>
        event.type === 'user.text' && reading(context, event, params).kind === 'change',
      /** The message asks to change something without saying which answer (or names several). */
      textAsksWhich: ({ context, event }, params: ReviewParams) =>
        event.type === 'user.text' && reading(context, event, params).kind === 'choose',
      /** A button naming one of the answers that can be changed. */
      buttonChoosesAnswer: ({ context, event }, params: ReviewParams) => {
        const value = pressed(event);
        return value !== null && params.keys.includes(value) && (context.answers[value] !== undefined || skippedToOffer(graph, params.keys, context).includes(value));
      },
      buttonIsBack: ({ event }) => pressed(event)?.trim().toLowerCase() === BACK_TO_SUMMARY,
    };
  },

  actions: ({ graph, lookups }) => ({
    /** A new step of the review: what the last turn failed at is no longer said. */
    clearNotice: flowAssign(({ context }) => ({ notice: null, invalid: null, ...(context.changed ? { changed: null } : {}) })),
    /**
     * Back at the summary: a correction is over, the previous answers are no longer offered. What it changed
     * (the answers set aside when it started, against the answers now) is kept for the reply to say.
     */
    endCorrection: flowAssign(({ context }) => {
      const changed = context.correction ? changesOf(context.previousAnswers, context.answers, context.correction.key) : [];
      const skipped = context.skipped?.filter((key) => context.answers[key] === undefined);
      return {
        correction: null,
        previousAnswers: {},
        ...(changed.length > 0 ? { changed } : context.changed ? { changed: null } : {}),
        ...(skipped && skipped.length !== context.skipped!.length ? { skipped } : {}),
      };
    }),
    /** A new turn at the summary: what the last correction changed has been said. */
    forgetChanged: flowAssign(({ context }) => (context.changed ? { changed: null } : {})),
    /**
     * Going back to change one answer: the answers the flow will pass again
     * (those after the edit edge's target) are kept aside as previous ones and
     * restored as it passes them, except the one being changed.
     */
    startCorrection: flowAssign(({ context, event }, params: ReviewParams & { again: string[] }) => {
      const again = new Set(params.again);
      // The skipped questions the flow passes again: passed over again (and skipped once more), unless being answered.
      const skipped = (context.skipped ?? []).filter((key) => again.has(key));
      const withSkipped = skipped.length > 0 ? { skipped } : {};
      let correction: NonNullable<FlowContext['correction']>;
      if (event.type === 'user.button') correction = { key: event.value, text: null, ...withSkipped };
      else {
        // The reading the guard chose this transition by: always a change here.
        const found = readingOf(graph, lookups, context, event, params);
        correction = found.kind === 'change' ? { key: found.key, text: found.text, ...withSkipped } : { key: '', text: null };
      }
      const kept = Object.fromEntries(Object.entries(context.answers).filter(([key]) => !again.has(key)));
      const asked = Object.fromEntries(Object.entries(context.answers).filter(([key]) => again.has(key)));
      return {
        previousAnswers: { ...context.previousAnswers, ...asked },
        answers: kept,
        notice: null,
        invalid: null,
        correction,
        ...(context.changed ? { changed: null } : {}),
        ...(skipped.length > 0 ? { skipped: context.skipped!.filter((key) => !again.has(key)) } : {}),
      };
    }),
  }),

  state(p, c: CompileContext) {
    const { route } = c;
    // What going back clears: the answers of every question (and action) reachable from where the edit edge goes.
    const againFrom = (t: Transition) => c.answersFrom((t.target ?? '').replace(`#${c.doc.id}.`, ''));
    // The answers a person may change: the questions along the edit edges.
    const keys = [...c.changeableAt(p.id)];
    const params = { node: p.id, keys };
    const correcting = (guard: string): Transition[] =>
      route(p, 'edit', { type: guard, params }).map((t) => ({ ...t, actions: [{ type: 'startCorrection', params: { ...params, again: againFrom(t) } }, ...(t.actions ?? [])] }));
    const notUnderstood = { actions: [{ type: 'forgetChanged' }, { type: 'noteNotUnderstood', params: { place: null } }] };
    const on = (guard: string) => ({ type: guard, params });
    return {
      tags: ['confirmation'],
      ...c.traced(p),
      entry: [...c.traced(p).entry, { type: 'endCorrection' }],
      initial: REVIEWING,
      states: {
        [REVIEWING]: {
          on: {
            'user.button': [
              ...route(p, 'confirmed', on('buttonIsConfirm')),
              { guard: on('buttonIsEdit'), target: CHOOSING, actions: [{ type: 'clearNotice' }] },
              notUnderstood,
            ],
            'user.text': [
              ...route(p, 'confirmed', on('textConfirms')),
              ...correcting('textCorrects'),
              { guard: on('textAsksWhich'), target: CHOOSING, actions: [{ type: 'clearNotice' }] },
              notUnderstood,
            ],
          },
        },
        [CHOOSING]: {
          on: {
            'user.button': [
              ...correcting('buttonChoosesAnswer'),
              { guard: { type: 'buttonIsBack' }, target: REVIEWING, actions: [{ type: 'clearNotice' }] },
              notUnderstood,
            ],
            'user.text': [...correcting('textCorrects'), notUnderstood],
          },
        },
      },
    };
  },

  reply(node, { graph, context, place, phase, notUnderstood, because, messages, changeableAt }) {
    const statement = messages.problemStatement(graph, context.answers);
    if (phase === CHOOSING) {
      // One button per answer that can be changed here (what its edit edges lead back through).
      const changeable = changeableAt(place);
      // (A skipped optional question among them, in its place: "Flight number: not answered".)
      const skipped = skippedToOffer(graph, changeable, context);
      const offered = graph.questions.filter((q) => changeable.includes(answerKey(q)) && (context.answers[answerKey(q)] !== undefined || skipped.includes(answerKey(q))));
      return {
        message: notUnderstood ? `${messages.NOT_UNDERSTOOD_MESSAGE}\n\n${messages.WHICH_ANSWER_MESSAGE}` : messages.WHICH_ANSWER_MESSAGE,
        buttons: [
          ...offered.map((q) => ({ label: messages.answerButtonLabel(q, context.answers[answerKey(q)]), value: answerKey(q) })),
          { label: messages.BACK_TO_SUMMARY_LABEL, value: BACK_TO_SUMMARY },
        ],
        buttonContext: 'gate_confirmation',
        artifacts: [],
        completion: { isComplete: false, reason: 'awaiting_user_confirmation', readyForHandoff: false },
      };
    }
    const summary = messages.summaryMessage(graph, node, context.answers, skippedToOffer(graph, changeableAt(place), context));
    // What the correction just made changed, said before the summary (however it was asked for).
    const changed = notUnderstood ? '' : messages.changedText(graph, context.changed ?? [], context.answers);
    return {
      message: notUnderstood ? `${messages.notUnderstoodAtSummary(node.editLabel)}\n\n${summary}` : (changed && `${changed}\n\n`) + because + summary,
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
  resume: (node) => ({ [node.id]: REVIEWING }),

  /**
   * Confirm and edit, as buttons and as text; an unknown button and unclear
   * text; at "which answer?", each answer's button and "back"; and a
   * correction by value for each answer that one value alone can change.
   */
  testEvents(_node, t) {
    const events: FlowTestEvent[] = [button('confirm'), button('edit'), button(UNKNOWN_BUTTON), button(BACK_TO_SUMMARY)];
    events.push(textEvent("Yes, that's correct"), textEvent("That's wrong"), textEvent('the weather is nice'));
    const week = new Date(t.today.getTime() + 7 * 86_400_000).toISOString().slice(0, 10);
    for (const q of t.graph.questions) {
      const key = answerKey(q);
      const answer = t.snapshot.context.answers[key];
      if (!answer) continue;
      // The answer by its key's words: named without a value (asked again), and with a new value where one can be written.
      const named = nameWords(key).join(' ') || key;
      events.push(button(key), textEvent(`${named} is wrong`));
      const a = q.answer;
      const other =
        a.type === 'category'
          ? a.categories.find((c) => c !== answer.value)
          : a.type === 'number'
            ? String(Math.min((a.min ?? 0) + 1, a.max ?? Number.MAX_SAFE_INTEGER)) === String(answer.value) ? String(a.max ?? (a.min ?? 0) + 2) : String(Math.min((a.min ?? 0) + 1, a.max ?? Number.MAX_SAFE_INTEGER))
            : a.type === 'date'
              ? week
              : a.type === 'boolean'
                ? Object.values(booleanLabels(a)).find((label) => label.toLowerCase() !== String(answer.value).toLowerCase() && (answer.value === true) !== /^y/i.test(label))
              : a.type === 'email'
                ? 'someone.else@example.com'
                : a.type === 'phone'
                  ? '+1 202 555 0188'
                  : undefined;
      if (other !== undefined) events.push(textEvent(`${named} ${other}`));
      // A day is read only from a message that is the day alone ("2026-11-28"): it corrects the one date answer so.
      if (a.type === 'date') events.push(textEvent(week));
    }
    return events;
  },
};
