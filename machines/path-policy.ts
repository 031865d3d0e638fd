import { z } from 'zod';

/**
 * Path selection with hysteresis: a chooser (a model, or the offline matcher
 * on path keywords) votes for one of a flow's paths each turn; votes
 * accumulate, the path locks once it has `lockThreshold` of them, and until
 * then every counted vote shrinks the other paths' votes, so that evidence
 * going back and forth never locks anything.
 *
 * Everything here is pure and plain JSON: the machine in
 * machines/path-selection.ts keeps this state in its context.
 */

// ---------------------------------------------------------------- knobs

/** The knobs of the policy, with their defaults. The single source of their validation and types. */
export const PathPolicySchema = z.strictObject({
  /** Votes a path needs to lock. Each counted vote is worth 1, whatever its confidence. */
  lockThreshold: z
    .number({ error: 'lockThreshold must be a number' })
    .int({ error: 'lockThreshold must be a whole number of votes' })
    .min(1, { error: 'lockThreshold must be at least 1 (a path locks after this many votes)' })
    .max(100, { error: 'lockThreshold must be at most 100' })
    .describe('Votes a path needs to lock (3 when absent).')
    .default(3),
  /** Before the lock, may the tentative path change? When false, votes for any other path are refused. */
  allowSwitchBeforeLock: z
    .boolean({ error: 'allowSwitchBeforeLock must be true or false' })
    .describe('Whether the tentative path may change before the lock (true when absent).')
    .default(true),
  /**
   * The share of their votes the other paths lose at each counted vote:
   * their votes are multiplied by `1 - decay`. 0 keeps them (plain counting),
   * 1 wipes them out. Votes alternating between two paths never reach
   * `1 / decay`, so with `decay * lockThreshold > 1` flip-flops never lock
   * (the default: 0.5 × 3).
   */
  decay: z
    .number({ error: 'decay must be a number' })
    .min(0, { error: 'decay must be between 0 and 1 (the share of their votes other paths lose per vote)' })
    .max(1, { error: 'decay must be between 0 and 1 (the share of their votes other paths lose per vote)' })
    .describe('The share of their votes the other paths lose at each counted vote, 0 to 1 (0.5 when absent).')
    .default(0.5),
  /** Votes with a confidence below this are ignored (recorded, not counted). */
  minConfidence: z
    .number({ error: 'minConfidence must be a number' })
    .min(0, { error: 'minConfidence must be between 0 and 1' })
    .max(1, { error: 'minConfidence must be between 0 and 1' })
    .describe('Votes with a lower confidence are recorded, not counted (0.5 when absent).')
    .default(0.5),
  /** How many turns `history` keeps (the most recent ones). */
  historyLimit: z
    .number({ error: 'historyLimit must be a number' })
    .int({ error: 'historyLimit must be a whole number' })
    .min(1, { error: 'historyLimit must be at least 1' })
    .max(10_000, { error: 'historyLimit must be at most 10000' })
    .describe('How many turns the vote history keeps (50 when absent).')
    .default(50),
});

/** The knobs as a flow writes them: every one optional. */
export type PathPolicyInput = z.input<typeof PathPolicySchema>;
/** The knobs with every default filled in. */
export type PathPolicy = z.output<typeof PathPolicySchema>;

export const DEFAULT_PATH_POLICY: PathPolicy = Object.freeze(PathPolicySchema.parse({}));

export class PathPolicyError extends Error {
  override readonly name = 'PathPolicyError';
  constructor(
    message: string,
    readonly issues: { path: string; message: string }[],
  ) {
    super(message);
  }
}

function refuse(what: string, error: z.ZodError): never {
  const issues = error.issues.map((i) => ({ path: i.path.map(String).join('.'), message: i.message }));
  const text = issues.map((i) => (i.path ? `${i.path}: ${i.message}` : i.message)).join('; ');
  throw new PathPolicyError(`invalid ${what}: ${text}`, issues);
}

/** The knobs with defaults filled in; bad knobs are refused with a `PathPolicyError` naming each one. */
export function parsePathPolicy(input: unknown = {}): PathPolicy {
  const parsed = PathPolicySchema.safeParse(input ?? {});
  return parsed.success ? parsed.data : refuse('path policy', parsed.error);
}

/**
 * Valid knobs that probably do not do what the author wants, in words (for
 * `gateflow validate`): a decay too weak for the threshold lets evidence that
 * goes back and forth lock after enough turns.
 */
export function pathPolicyWarnings(policy: PathPolicy): string[] {
  const warnings: string[] = [];
  if (policy.decay * policy.lockThreshold <= 1)
    warnings.push(
      `decay ${policy.decay} with lockThreshold ${policy.lockThreshold}: votes alternating between two paths ` +
        `approach ${policy.decay === 0 ? 'no limit' : round(1 / policy.decay)} and can lock after enough turns ` +
        `(flip-flops never lock when decay × lockThreshold > 1)`,
    );
  if (policy.lockThreshold === 1) warnings.push('lockThreshold 1: the first counted vote locks, there is no hysteresis');
  return warnings;
}

// ---------------------------------------------------------------- paths

/** "none" is what a model answers when it sees no path: no path may be called that. */
export const NO_PATH = 'none';

export const PathOptionSchema = z.strictObject({
  id: z
    .string()
    .trim()
    .min(1, { error: 'a path id must not be empty' })
    .refine((id) => id !== NO_PATH, { error: `"${NO_PATH}" is reserved (it is how a model says "no path")` })
    .describe('The path\'s id: guards compare context.path.locked with it.'),
  /** What a person sees (a button); the id when absent. */
  label: z.string().trim().min(1).describe('What a person sees (a button); the id when absent.').optional(),
  /** Words and phrases that point to this path (the offline chooser's synonyms). */
  keywords: z
    .array(z.string().trim().min(1, { error: 'a keyword must not be empty' }))
    .describe('Words and phrases that point to this path (read without a model).')
    .optional(),
  /** What the path is for, in words a model reads. */
  description: z.string().describe('What the path is for, in words a model reads.').optional(),
});

export const PathOptionsSchema = z
  .array(PathOptionSchema)
  .min(1, { error: 'a path selection needs at least one path' })
  .superRefine((paths, ctx) => {
    const seen = new Set<string>();
    paths.forEach((p, i) => {
      if (seen.has(p.id)) ctx.addIssue({ code: 'custom', path: [i, 'id'], message: `duplicate path id "${p.id}"` });
      seen.add(p.id);
    });
  });

export type PathOption = z.output<typeof PathOptionSchema>;
export type PathOptionInput = z.input<typeof PathOptionSchema>;

export function parsePathOptions(input: unknown): PathOption[] {
  const parsed = PathOptionsSchema.safeParse(input);
  return parsed.success ? parsed.data : refuse('paths', parsed.error);
}

// ---------------------------------------------------------------- choosers

/** What a chooser reads: the person's message and the paths on offer. */
export interface ChooseInput {
  text: string;
  paths: readonly PathOption[];
}

/** What a chooser answers: a path, or null when it abstains. */
export interface PathChoice {
  path: string | null;
  confidence: number;
  rationale?: string;
  /** Set when the chooser could not answer (a model call failed): the choice is then a null vote. */
  failure?: { reason: 'model_error' | 'invalid_output'; message: string };
}

// ---------------------------------------------------------------- votes

/** One turn's vote. Without a confidence a vote counts as sure (1). */
export interface PathVote {
  path: string | null;
  confidence?: number;
  /** The chooser's own reason, kept beside the policy's. */
  rationale?: string;
  /**
   * The person chose the path themselves (pressed its button): it locks at
   * once. Hysteresis is for votes inferred from what they wrote.
   */
  explicit?: boolean;
}

export type VoteOutcome =
  /** Counted; no lock yet. */
  | 'voted'
  /** Counted, and it locked the path. */
  | 'locked'
  /** A path is locked: nothing changes any more. */
  | 'after_lock'
  /** Below `minConfidence`. */
  | 'low_confidence'
  /** The chooser chose no path. */
  | 'abstained'
  /** `allowSwitchBeforeLock` is false and the vote was for another path than the tentative one. */
  | 'switch_refused'
  /** A path the selection does not offer. */
  | 'unknown_path'
  /** A message came while the chooser was still reading the previous one. */
  | 'busy';

/** One turn in the history: what was proposed, what the policy made of it, and why. */
export interface PathTurn {
  /** 1-based, counting every turn, also those no longer kept. */
  turn: number;
  path: string | null;
  confidence: number;
  outcome: VoteOutcome;
  rationale: string;
  /** The chooser's reason, when it gave one. */
  chooser?: string;
}

export interface PathState {
  /** Accumulated (and decayed) votes per path. */
  votes: Record<string, number>;
  /** The path leading so far, before the lock. */
  tentative: string | null;
  /** The path chosen for good. */
  locked: string | null;
  /** The most recent turns (at most `historyLimit`), oldest first. */
  history: PathTurn[];
}

export interface VoteResult {
  state: PathState;
  outcome: VoteOutcome;
  rationale: string;
}

export function initialPathState(pathIds: readonly string[] = []): PathState {
  return { votes: Object.fromEntries(pathIds.map((id) => [id, 0])), tentative: null, locked: null, history: [] };
}

/**
 * Applies one turn's vote. Deterministic and pure:
 *
 * - locked: nothing changes (the turn is recorded as ignored);
 * - no path, or an unknown path: ignored;
 * - an explicit choice (a button the person pressed): the path locks at once;
 * - a confidence below `minConfidence`: ignored;
 * - a vote for another path than the tentative one while
 *   `allowSwitchBeforeLock` is false: refused;
 * - otherwise the path gains 1 and every other path's votes are multiplied by
 *   `1 - decay`; the path locks when it reaches `lockThreshold`; else the
 *   tentative path becomes the leader. A tie for the lead keeps the current
 *   tentative path (that is the hysteresis); among others the first path id
 *   in code-unit order wins.
 *
 * `knownPaths`, when given, are the only paths that may be voted for.
 */
export function applyVote(state: PathState, vote: PathVote, policy: PathPolicy, knownPaths?: readonly string[]): VoteResult {
  const confidence = clampConfidence(vote.confidence);
  const path = vote.path;
  const at = `${path} (${show(confidence)})`;
  const record = (next: Omit<PathState, 'history'>, outcome: VoteOutcome, rationale: string): VoteResult => ({
    state: { ...next, history: appendTurn(state.history, { path, confidence, outcome, rationale, chooser: vote.rationale }, policy) },
    outcome,
    rationale,
  });

  if (state.locked !== null)
    return record(state, 'after_lock', `ignored: locked on ${state.locked}${path === null ? '' : ` (vote for ${at})`}`);
  if (path === null) return record(state, 'abstained', 'abstained: no path chosen');
  if (knownPaths && !knownPaths.includes(path)) return record(state, 'unknown_path', `ignored: unknown path ${JSON.stringify(path)}`);
  if (vote.explicit) {
    // A choice, not evidence: decided now, whatever the votes so far (they are kept, for the record).
    const votes = { ...state.votes, [path]: Math.max(state.votes[path] ?? 0, policy.lockThreshold) };
    return record({ votes, tentative: path, locked: path }, 'locked', `chosen ${path}: an explicit choice locks at once`);
  }
  if (confidence < policy.minConfidence)
    return record(state, 'low_confidence', `ignored: ${path} at confidence ${show(confidence)} below ${show(policy.minConfidence)}`);
  if (!policy.allowSwitchBeforeLock && state.tentative !== null && path !== state.tentative)
    return record(state, 'switch_refused', `refused ${at}: switching before the lock is off, tentative ${state.tentative}`);

  const votes: Record<string, number> = {};
  const decayed: string[] = [];
  for (const [id, count] of Object.entries(state.votes)) {
    if (id === path) continue;
    votes[id] = round(count * (1 - policy.decay));
    if (count > 0 && policy.decay > 0) decayed.push(`${id} ${show(count)}→${show(votes[id])}`);
  }
  const count = round((state.votes[path] ?? 0) + 1);
  votes[path] = count;
  const decay = decayed.length > 0 ? `; decayed ${decayed.join(', ')}` : '';

  if (count >= policy.lockThreshold)
    return record(
      { votes, tentative: path, locked: path },
      'locked',
      `voted ${at}: locked ${path} at ${show(count)}/${policy.lockThreshold}${decay}`,
    );

  const tentative = policy.allowSwitchBeforeLock ? leader(votes, state.tentative) : (state.tentative ?? path);
  const switched = state.tentative !== null && tentative !== state.tentative ? ` (was ${state.tentative})` : '';
  return record(
    { votes, tentative, locked: null },
    'voted',
    `voted ${at}: ${path} ${show(count)}/${policy.lockThreshold}, tentative ${tentative}${switched}${decay}`,
  );
}

/** Records a turn that was not a vote at all (a message that came while the chooser was busy). */
export function skipTurn(state: PathState, outcome: VoteOutcome, rationale: string, policy: PathPolicy): VoteResult {
  return {
    state: { ...state, history: appendTurn(state.history, { path: null, confidence: 0, outcome, rationale }, policy) },
    outcome,
    rationale,
  };
}

function appendTurn(history: PathTurn[], turn: Omit<PathTurn, 'turn' | 'chooser'> & { chooser?: string | undefined }, policy: PathPolicy): PathTurn[] {
  const { chooser, ...rest } = turn;
  const entry: PathTurn = { turn: (history.at(-1)?.turn ?? 0) + 1, ...rest, ...(chooser ? { chooser } : {}) };
  return [...history, entry].slice(-policy.historyLimit);
}

function leader(votes: Record<string, number>, current: string | null): string {
  const best = Math.max(...Object.values(votes));
  if (current !== null && votes[current] === best) return current;
  return Object.keys(votes)
    .filter((id) => votes[id] === best)
    .sort((a, b) => (a < b ? -1 : a > b ? 1 : 0))[0]!;
}

function clampConfidence(value: number | undefined): number {
  if (value === undefined) return 1;
  if (!Number.isFinite(value)) return 0;
  return Math.min(1, Math.max(0, value));
}

/** Votes are kept to 6 decimals, so that repeated decay stays exact enough to compare with the threshold. */
function round(n: number): number {
  return Math.round(n * 1e6) / 1e6;
}

/** For rationales: at most 2 decimals, rounded down, so a count below the threshold never reads as reaching it. */
function show(n: number): string {
  return String(Math.floor(Math.round(n * 1e6) / 1e4) / 100);
}
