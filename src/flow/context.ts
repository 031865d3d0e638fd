import { z } from 'zod';

/**
 * How a value was obtained: a button press, the offline matcher or parser, a
 * model, an action node, the host at start (a declared input), or an input
 * gate someone answered (an input node).
 */
export const AnswerSourceSchema = z.enum(['button', 'match', 'llm', 'action', 'host', 'input']);

/** An answer's value: a category or text, a number, a yes/no. Dates are ISO strings (YYYY-MM-DD). */
export const AnswerValueSchema = z.union([z.string(), z.number(), z.boolean()]);

export const AnswerSchema = z.object({
  value: AnswerValueSchema,
  confidence: z.number().min(0).max(1),
  source: AnswerSourceSchema,
  /** What the person sent: the button value or the text (for an action, its name). */
  raw: z.string(),
});

/** Path selection as the flow sees it: guards read it as `context.path`. */
export const FlowPathStateSchema = z.object({
  tentative: z.string().nullable(),
  locked: z.string().nullable(),
  votes: z.record(z.string(), z.number()),
  /**
   * The last message's vote: the path it pointed to (null: none) and what the
   * policy made of it (`voted`, `abstained`, ...), so the reply can say what
   * was understood. Absent in snapshots from before it was kept.
   */
  last: z.object({ path: z.string().nullable(), outcome: z.string() }).optional(),
});

/** The machine's context: plain JSON, so a snapshot persists as it is. */
export const FlowContextSchema = z.object({
  /** Answers by answer key (the question's `key`, or its id). */
  answers: z.record(z.string(), AnswerSchema),
  /** The answers as they were before the person chose to edit them. */
  previousAnswers: z.record(z.string(), AnswerSchema),
  /**
   * Set when the last turn could not be understood, or could not be read because the model is
   * unavailable (never counted as the person's failure); the reply says which.
   */
  notice: z.enum(['not_understood', 'model_unavailable']).nullable(),
  /** Why the last answer was refused (a validation message); the reply says it. */
  invalid: z
    .object({
      node: z.string(),
      message: z.string(),
      /** What the answer may have meant, offered as buttons ("next friday": two dates). */
      choices: z.array(z.object({ label: z.string(), value: z.string() })).optional(),
    })
    .nullable(),
  /** Failed answers in a row, by the state id of the question (reset when it is answered). */
  attempts: z.record(z.string(), z.number().int()),
  /** The text being extracted, kept so an answer records what was said. */
  pendingText: z.string().nullable(),
  /** The question whose limiting value ended the flow. */
  stoppedBy: z.string().nullable(),
  /** Facts the host gave at start (channel, tenant, ...): guards read them as `context.*`. */
  host: z.record(z.string(), z.json()),
  /** Path selection, when the flow has paths. */
  path: FlowPathStateSchema.nullable(),
  /** Why the last action failed, for the reply and traces. */
  actionError: z.object({ node: z.string(), message: z.string() }).nullable(),
  /**
   * A correction made at the summary, while the flow goes back through its
   * questions: the answer being changed (`key`) and the message that changes
   * it (null: ask it again). Every other answer the flow passes is kept.
   * Absent in snapshots from before corrections existed: read as null.
   */
  correction: z
    .object({
      key: z.string(),
      text: z.string().nullable(),
      /** The optional questions the person had skipped that the flow passes again: passed over again, unless being answered. */
      skipped: z.array(z.string()).optional(),
    })
    .nullable()
    .optional(),
  /**
   * The optional questions (answer keys) the person skipped on the flow's way to where it is, unanswered: a summary
   * offers them to answer ("Flight number: not answered"). A question the flow's path did not reach is never here.
   * Absent in older snapshots and while none was skipped.
   */
  skipped: z.array(z.string()).optional(),
  /**
   * What the last correction at the summary changed, said in the summary's reply ("Changed: Guests: 60 → 80."):
   * each answer key with its value before (null: it had none, a skipped question answered now; `dropped`: the flow no longer passes that question, so its answer was
   * taken out). Every change is said, however it was asked for (by name, by value alone, by a button).
   * Absent in older snapshots and whenever nothing changed.
   */
  changed: z.array(z.object({ key: z.string(), from: AnswerValueSchema.nullable(), dropped: z.boolean().optional() })).nullable().optional(),
  /**
   * Answers the last message gave to questions not yet asked (answer keys):
   * the reply says what was noted, so that nothing is committed silently.
   * Absent in snapshots from before it was kept: read as none.
   */
  noted: z.array(z.string()).optional(),
  /**
   * A limiting value read from free text (not a button), held until the person confirms it
   * (issue 26 §2): the state id of the question it answers, its answer key and the answer.
   * Committed on "yes", dropped on "no" (the question is asked again). Absent in older snapshots.
   */
  pendingStop: z.object({ place: z.string(), key: z.string(), answer: AnswerSchema }).nullable().optional(),
  /**
   * What the last unread or refused answer to a question most likely meant (a hedged "probably twice a week",
   * "around 20k I guess": extract/guess.ts): the state id of the question and the value, offered back ("Did you
   * mean ...?", with its button) and never committed from here. Absent in older snapshots, and in most others.
   */
  guess: z.object({ node: z.string(), value: AnswerValueSchema }).nullable().optional(),
});

/** A person's turn, as the machine receives it. */
export type FlowEvent = { type: 'user.text'; text: string } | { type: 'user.button'; value: string };

/** What a flow's actor may be started with. */
export interface FlowInput {
  /** Facts guards read as `context.*` (plain JSON). */
  context?: Record<string, z.infer<ReturnType<typeof z.json>>>;
}

export type AnswerSource = z.infer<typeof AnswerSourceSchema>;
export type AnswerValue = z.infer<typeof AnswerValueSchema>;
export type Answer = z.infer<typeof AnswerSchema>;
export type FlowPathState = z.infer<typeof FlowPathStateSchema>;
export type FlowContext = z.infer<typeof FlowContextSchema>;

export const initialFlowContext = (input: FlowInput = {}): FlowContext => ({
  answers: {},
  previousAnswers: {},
  notice: null,
  invalid: null,
  attempts: {},
  pendingText: null,
  stoppedBy: null,
  correction: null,
  host: input.context ?? {},
  path: null,
  actionError: null,
});
