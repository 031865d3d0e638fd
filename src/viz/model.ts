import type { AnyStateMachine } from 'xstate';

export type DrawnStateType = 'atomic' | 'compound' | 'parallel' | 'final' | 'history';

export interface DrawnInvoke {
  id: string;
  /** The actor's name in `setup({ actors })`, or `xstate.invoke.<i>.<stateId>` for inline logic. */
  src: string;
}

/** An input a waiting state declares (its `meta.inputs`, see src/inputs): what it waits for, from whom, until when. */
export interface DrawnInput {
  name: string;
  /** `boolean`, `number`, `enum`, ... */
  type: string;
  /** The role that answers; null: the person in the conversation. */
  to: string | null;
  /** An ISO 8601 duration ("PT24H"), or null. */
  deadline: string | null;
}

export interface DrawnState {
  /** The state's path from the root, machine id first, joined with '.': `flow.a.b`. */
  id: string;
  key: string;
  /** The parent's `id`; null for the root (the machine itself). */
  parent: string | null;
  type: DrawnStateType;
  /** The key of the initial child, if any. */
  initial: string | null;
  tags: string[];
  /** The state's `meta` as given in the config. */
  meta: Record<string, unknown> | null;
  invoke: DrawnInvoke[];
  /** The inputs it waits for (its `meta.inputs`); none for a state that does not wait. */
  inputs: DrawnInput[];
}

export interface DrawnTransition {
  /**
   * The transition's name, as coverage reports name it (`transitionName`):
   * `<source> on <event> #<n>`, `<source> always #<n>`. The edges of one
   * transition to several targets share it.
   */
  id: string;
  source: string;
  /** A state `id`, or null for a targetless transition (actions only, no state change). */
  target: string | null;
  /** The event descriptor, or `ALWAYS_EVENT` for eventless transitions. */
  event: string;
  /** A readable label of the guard, e.g. `!textMatches({gate:"a"})` or `cel: answers.x == 1`. */
  guard: string | null;
  /** Action type names, in order. */
  actions: string[];
  /** Index among the source's transitions for this event: the order XState tries them in. */
  order: number;
}

export interface MachineDrawing {
  id: string;
  /** Every state, the root first, in document order (depth first). */
  states: DrawnState[];
  /** Per source state in `states` order, then in the order XState holds them. */
  transitions: DrawnTransition[];
}

/** What a drawing's meta says in place of a part computed at run time (a function). */
export const COMPUTED_META = 'computed from the context at run time';

/** The `event` of an eventless (`always`) transition; XState's own descriptor is ''. */
export const ALWAYS_EVENT = 'always';

// The parts of a state node this module reads. Guards and actions stay `unknown`:
// they may be strings, `{ type, params }` objects or functions.
interface NodeShape {
  readonly key: string;
  readonly type: DrawnStateType;
  readonly states: Readonly<Record<string, NodeShape>>;
  readonly tags: readonly string[];
  readonly meta?: unknown;
  readonly initial: { readonly target: readonly NodeShape[] } | undefined;
  readonly transitions: ReadonlyMap<string, readonly TransitionShape[]>;
  readonly always?: readonly TransitionShape[] | undefined;
  readonly invoke: readonly { readonly id: string; readonly src: unknown }[];
}

interface TransitionShape {
  readonly target: readonly NodeShape[] | undefined;
  readonly guard?: unknown;
  readonly actions: readonly unknown[];
}

/** A plain JSON model of a machine's states and transitions, stable for snapshots. */
export function machineDrawing(machine: AnyStateMachine): MachineDrawing {
  const root: NodeShape = machine.root;
  const ids = new Map<NodeShape, string>();
  const nodes: NodeShape[] = [];
  const states: DrawnState[] = [];
  const visit = (node: NodeShape, parent: string | null) => {
    const id = parent === null ? node.key : `${parent}.${node.key}`;
    ids.set(node, id);
    nodes.push(node);
    states.push(drawState(node, id, parent));
    for (const child of Object.values(node.states)) visit(child, id);
  };
  visit(root, null);

  const idOf = (node: NodeShape): string => {
    const id = ids.get(node);
    if (id === undefined) throw new Error(`state node "${node.key}" is not part of machine "${machine.id}"`);
    return id;
  };
  const transitions = nodes.flatMap((node) => drawTransitions(node, idOf));
  return { id: machine.id, states, transitions };
}

function drawState(node: NodeShape, id: string, parent: string | null): DrawnState {
  return {
    id,
    key: node.key,
    parent,
    type: node.type,
    initial: node.initial?.target[0]?.key ?? null,
    tags: [...node.tags],
    meta: jsonMeta(node.meta),
    invoke: node.invoke.map((inv) => ({ id: inv.id, src: String(inv.src) })),
    inputs: drawInputs(node.meta),
  };
}

/**
 * A state's meta as the drawing's JSON carries it: a computed part (an
 * agent's `inputs`, a function of the context) becomes the words
 * {@link COMPUTED_META}, so the drawing still says the state waits; undefined
 * is dropped; null when it is not plain data.
 */
function jsonMeta(meta: unknown): Record<string, unknown> | null {
  if (!isRecord(meta)) return null;
  try {
    return JSON.parse(JSON.stringify(meta, (_key, value: unknown) => (typeof value === 'function' ? COMPUTED_META : value))) as Record<string, unknown>;
  } catch {
    return null;
  }
}

/** The inputs a state's meta declares, read leniently (a drawing never fails on a machine's meta). */
function drawInputs(meta: unknown): DrawnInput[] {
  const inputs = isRecord(meta) && Array.isArray(meta.inputs) ? meta.inputs : [];
  return inputs.flatMap((i: unknown) =>
    isRecord(i) && typeof i.name === 'string' && typeof i.type === 'string'
      ? [{ name: i.name, type: i.type, to: typeof i.to === 'string' ? i.to : null, deadline: typeof i.deadline === 'string' ? i.deadline : null }]
      : [],
  );
}

function drawTransitions(node: NodeShape, idOf: (node: NodeShape) => string): DrawnTransition[] {
  const source = idOf(node);
  const groups: [string, readonly TransitionShape[]][] = [...node.transitions];
  if (node.always) groups.push([ALWAYS_EVENT, node.always]);
  return groups.flatMap(([event, list]) =>
    list.flatMap((t, order) => {
      const guard = guardLabel(t.guard);
      const actions = t.actions.map(actionName);
      // A transition to several states (parallel regions) becomes one edge per target.
      const targets = t.target && t.target.length > 0 ? t.target.map(idOf) : [null];
      const id = transitionName(source, event, order);
      return targets.map((target) => ({ id, source, target, event, guard, actions, order }));
    }),
  );
}

/** A transition's name: the `order`th candidate (from 0) of `source` for `event`, or of its eventless transitions. */
export function transitionName(source: string, event: string, order: number): string {
  return event === ALWAYS_EVENT ? `${source} always #${order + 1}` : `${source} on ${event} #${order + 1}`;
}

/**
 * A readable label for a guard as XState keeps it: a name, `{ type, params }`,
 * a `not`/`and`/`or`/`stateIn` guard (functions carrying `guards`/`stateValue`),
 * or an inline function.
 */
export function guardLabel(guard: unknown): string | null {
  return guard === undefined || guard === null ? null : describeGuard(guard);
}

type Combinator = { op: 'not' | 'and' | 'or'; guards: readonly unknown[] };

function describeGuard(guard: unknown): string {
  if (typeof guard === 'string') return guard;
  const combinator = combinatorOf(guard);
  if (combinator) return describeCombinator(combinator);
  if (typeof guard === 'function') {
    if ('stateValue' in guard) return `in(${compact(guard.stateValue)})`;
    return guard.name || 'inline';
  }
  if (isRecord(guard) && typeof guard.type === 'string') return describeTyped(guard.type, guard.params);
  return compact(guard);
}

// XState 5 builds not/and/or as functions named after the operator with a `guards`
// array; an object form `{ type: 'xstate.not', params: { guards } }` is read too.
function combinatorOf(guard: unknown): Combinator | null {
  if (typeof guard === 'function' && 'guards' in guard && Array.isArray(guard.guards)) {
    const op = operatorOf(guard.name);
    return op ? { op, guards: guard.guards } : null;
  }
  if (isRecord(guard) && typeof guard.type === 'string' && guard.type.startsWith('xstate.')) {
    const op = operatorOf(guard.type.slice('xstate.'.length));
    const guards = isRecord(guard.params) ? guard.params.guards : guard.guards;
    return op && Array.isArray(guards) ? { op, guards } : null;
  }
  return null;
}

function operatorOf(name: string): Combinator['op'] | null {
  return name === 'not' || name === 'and' || name === 'or' ? name : null;
}

function describeCombinator({ op, guards }: Combinator): string {
  const operand = (g: unknown) => {
    const inner = combinatorOf(g);
    const text = describeGuard(g);
    return inner && inner.op !== 'not' ? `(${text})` : text;
  };
  if (op === 'not') return `!${operand(guards[0])}`;
  return guards.map(operand).join(op === 'and' ? ' && ' : ' || ');
}

function describeTyped(type: string, params: unknown): string {
  if (params === undefined) return type;
  // Expression guards (`{ type: 'cel', params: { expr } }`) read best as the expression.
  if (isRecord(params) && typeof params.expr === 'string' && Object.keys(params).length === 1) {
    return `${type}: ${params.expr}`;
  }
  if (typeof params === 'function') return `${type}(…)`;
  // Named params read as `key=value`; plain words and numbers need no quotes.
  if (isRecord(params))
    return `${type}(${Object.entries(params)
      .map(([k, v]) => `${k}=${typeof v === 'string' && /^[\w.-]+$/.test(v) ? v : compact(v)}`)
      .join(', ')})`;
  return `${type}(${compact(params)})`;
}

/** An action's type name: built-in actions (`assign`, …) carry `type`, inline ones only a name. */
export function actionName(action: unknown): string {
  if (typeof action === 'string') return action;
  if (typeof action === 'function') {
    return 'type' in action && typeof action.type === 'string' ? action.type : action.name || 'inline';
  }
  if (isRecord(action) && typeof action.type === 'string') return action.type;
  return 'unknown';
}

/** JSON-like, without spaces, with bare identifier keys: `{gate:"a",n:[1,2]}`. */
function compact(value: unknown, seen: ReadonlySet<object> = new Set()): string {
  if (typeof value === 'string') return JSON.stringify(value);
  if (typeof value === 'bigint') return `${value}n`;
  if (typeof value === 'function') return '…';
  if (value === null || typeof value !== 'object') return String(value);
  if (seen.has(value)) return '[circular]';
  const inner = new Set(seen).add(value);
  if (Array.isArray(value)) return `[${value.map((v) => compact(v, inner)).join(',')}]`;
  const entries = Object.entries(value).map(([k, v]) => `${/^[A-Za-z_$][\w$]*$/.test(k) ? k : JSON.stringify(k)}:${compact(v, inner)}`);
  return `{${entries.join(',')}}`;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
