import { answerOrder } from './answer-order.js';
import { UNREADABLE_TERMINAL_ID } from './attempts.js';
import { OUTCOMES_BY_KIND, defaultOutcome } from './graph.js';
import { checkGuard, type GuardKind } from './guards/cel.js';
import { answersReadTooEarly, guardTypeProblems, type GuardAnswerType, type GuardVocabulary } from './guards/types.js';
import { checkPlaceholders } from './interpolate.js';
import { kindOf } from './nodes/index.js';
import type { EdgeCheckContext, NodeCheckContext, Silence } from './nodes/kind.js';
import { EXIT_TARGET, answerKey, isElseGuard, type AnswerSpec, type Edge, type EdgeOutcome, type FlowDocument, type FlowNode } from './schema.js';
import { closestName, didYouMean } from '../extract/suggest.js';

// Kept here for gate configs (and anyone who imported it from this module).
export { checkCategories } from './nodes/question.js';

/** One problem in a document: where (a path of keys and indexes) and what. */
export interface FlowIssue {
  path: (string | number)[];
  message: string;
  /** Errors refuse the document; warnings are reported by `gateflow validate` only. Error when absent. */
  severity?: 'error' | 'warning';
  /** The node the problem is about (its id), when there is one. */
  node?: string;
  /** For a guard: its text and the 0-based character position of the problem. */
  guard?: { source: string; position?: number };
}

/** Where a problem is: keys and indexes from the document's root. */
export type IssuePath = (string | number)[];
type Path = IssuePath;

/** A node list with its edges: the main flow or one subgraph, and where its fields are in the document. */
interface ScopeDoc {
  ref: string | null;
  nodes: FlowNode[];
  edges: Edge[];
  entry: string | undefined;
  at: Path;
}

/**
 * The rules a schema cannot state field by field: ids are unique (and dotted
 * ones never read as a node inside another), edges point at nodes that exist
 * and leave on outcomes their node has, guards type-check and are typed by
 * the answers they read (guards/types.ts: keys something gives, values an
 * answer can hold), limiting values are categories, every node is reachable
 * and can be left, no loop runs without asking anything. A misspelt name is
 * answered with "did you mean". Warnings (dead ends, loops that may ask
 * nothing, subgraphs never called) do not refuse a document.
 */
export function checkFlow(doc: FlowDocument): FlowIssue[] {
  const issues: FlowIssue[] = [];
  const add = (path: Path, message: string, extra: Omit<FlowIssue, 'path' | 'message'> = {}) =>
    issues.push({ path, message, ...extra });
  const warn = (path: Path, message: string, extra: Omit<FlowIssue, 'path' | 'message' | 'severity'> = {}) =>
    add(path, message, { ...extra, severity: 'warning' });

  const scopes: ScopeDoc[] = [
    { ref: null, nodes: doc.nodes, edges: doc.edges, entry: doc.start, at: [] },
    ...Object.entries(doc.subgraphs ?? {}).map(([ref, sub]) => ({
      ref,
      nodes: sub.nodes,
      edges: sub.edges,
      entry: sub.entry,
      at: ['subgraphs', ref],
    })),
  ];

  // Answer keys are flow-wide: guards read `answers.<key>` wherever the question is.
  const keys = new Map<string, Path>();
  // What guards may read, with its answer type when the flow knows it (an action's output it does not).
  const answerTypes = new Map<string, GuardAnswerType | undefined>();
  for (const [key, spec] of Object.entries(doc.inputs ?? {})) {
    keys.set(key, ['inputs', key]);
    answerTypes.set(key, spec);
  }
  for (const scope of scopes)
    scope.nodes.forEach((node, i) => {
      if (node.kind === 'question') {
        const key = answerKey(node);
        const where = [...scope.at, 'nodes', i, node.key !== undefined ? 'key' : 'id'];
        // A key taken from a duplicate id is reported once, as the id.
        const idTwice = node.key === undefined && scope.nodes.filter((n) => n.id === node.id).length > 1;
        if (keys.has(key) && !idTwice)
          add(where, `duplicate answer key "${key}" (also at ${pointer(keys.get(key)!)})`, { node: node.id });
        else keys.set(key, where);
        answerTypes.set(key, node.answer);
      }
      // Actions set answers too (their `assign`), and any kind may.
      if (node.kind !== 'question') {
        const types = kindOf(node).answerTypes?.(node) ?? {};
        for (const key of kindOf(node).answerKeys?.(node) ?? []) if (!answerTypes.has(key)) answerTypes.set(key, types[key]);
      }
    });

  const vocabulary: GuardVocabulary = {
    answers: answerTypes,
    constraints: new Set((doc.constraints ?? []).map((c) => c.name)),
    paths: doc.paths?.options.map((o) => o.id),
  };
  const order = answerOrder(doc);
  const guard = (path: Path, source: string, node: string | undefined, kind: GuardKind = 'guard') => {
    const problems = checkGuard(source, kind);
    // Types are checked once CEL accepts the guard: reads of keys nothing gives, values an answer never equals.
    if (problems.length === 0) problems.push(...guardTypeProblems(source, kind, { ...vocabulary, value: kind === 'validator' ? answerSpecAt(doc, path) : undefined }));
    // And in order: the answers it reads may have been given where it runs.
    const given = node === undefined ? undefined : order.givenBy(path[0] === 'subgraphs' ? String(path[1]) : null, node);
    if (problems.length === 0 && given) problems.push(...answersReadTooEarly(source, kind, answerTypes, given, order.giver, `"${node}"`));
    for (const problem of problems)
      add(path, `guard${problem.position !== undefined ? ` at character ${problem.position}` : ''}: ${problem.message}`, {
        ...(problem.severity && { severity: problem.severity }),
        ...(node !== undefined && { node }),
        guard: { source, ...(problem.position !== undefined && { position: problem.position }) },
      });
  };

  const silence = subgraphSilence(doc);
  for (const scope of scopes) checkScope(doc, scope, add, warn, guard, silence);

  // Subgraphs: references exist and never call themselves, directly or not.
  const subgraphs = doc.subgraphs ?? {};
  const calls = new Map<string, string[]>();
  for (const scope of scopes)
    scope.nodes.forEach((node, i) => {
      if (node.kind !== 'subgraph') return;
      if (!(node.ref in subgraphs)) add([...scope.at, 'nodes', i, 'ref'], `no subgraph is named "${node.ref}"${didYouMean(node.ref, Object.keys(subgraphs))}`, { node: node.id });
      const from = scope.ref ?? '';
      calls.set(from, [...(calls.get(from) ?? []), node.ref]);
    });
  for (const ref of Object.keys(subgraphs)) {
    const path = findCycle(ref, calls);
    if (path) add(['subgraphs', ref], `subgraph "${ref}" calls itself: ${path.join(' → ')}`);
    if (!reaches('', ref, calls)) warn(['subgraphs', ref], `subgraph "${ref}" is never called`);
  }

  checkPlaceIds(doc, add);

  (doc.constraints ?? []).forEach((c, i) => {
    const at: Path = ['constraints', i];
    if ((doc.constraints ?? []).findIndex((d) => d.name === c.name) !== i) add([...at, 'name'], `duplicate constraint "${c.name}"`);
    if (!c.oneOf && c.check === undefined) add(at, `constraint "${c.name}" needs "oneOf" or "check"`);
    c.oneOf?.forEach((key, j) => {
      if (!keys.has(key)) add([...at, 'oneOf', j], `no question has the key "${key}"${didYouMean(key, keys.keys())}`);
    });
    if (c.check !== undefined) guard([...at, 'check'], c.check, undefined);
    const fallback = c.fallback === undefined ? undefined : doc.nodes.find((n) => n.id === c.fallback);
    if (c.fallback !== undefined && !fallback) add([...at, 'fallback'], `no node of the main flow has the id "${c.fallback}"${didYouMean(c.fallback, doc.nodes.map((n) => n.id))}`);
    // The flow is sent back there to ask again: a node that asks nothing would loop or end.
    if (fallback && fallback.kind !== 'question' && fallback.kind !== 'path' && fallback.kind !== 'subgraph')
      add([...at, 'fallback'], `a constraint sends the flow back to ask again: "${c.fallback}" is a ${fallback.kind}, not a question, path or subgraph call`);
  });

  if (doc.fallback !== undefined && !doc.nodes.some((n) => n.id === doc.fallback))
    add(['fallback'], `no node of the main flow has the id "${doc.fallback}"${didYouMean(doc.fallback, doc.nodes.map((n) => n.id))}`);

  const mainIds = new Set(doc.nodes.map((n) => n.id));
  doc.migrations?.forEach((m, i) => {
    if (String(m.from) === String(doc.version)) add(['migrations', i, 'from'], `a migration cannot start from the flow's own version ${doc.version}`);
    for (const [from, to] of Object.entries(m.nodes))
      if (!mainIds.has(to)) add(['migrations', i, 'nodes', from], `no node has the id "${to}"${didYouMean(to, mainIds)}`);
  });

  // `{answers.<key>}` in prompts and messages names an answer the flow gives.
  issues.push(...checkPlaceholders(doc));

  return issues;
}

/** Only the errors: what refuses a document. */
export const flowErrors = (issues: FlowIssue[]) => issues.filter((i) => (i.severity ?? 'error') === 'error');

function checkScope(
  doc: FlowDocument,
  scope: ScopeDoc,
  add: (path: Path, message: string, extra?: Omit<FlowIssue, 'path' | 'message'>) => void,
  warn: (path: Path, message: string, extra?: Omit<FlowIssue, 'path' | 'message' | 'severity'>) => void,
  guard: (path: Path, source: string, node: string | undefined, kind?: GuardKind) => void,
  silence: Map<string, Silence>,
): void {
  // Structural errors (bad references, missing edges) stop the graph analyses below.
  let broken = false;
  const fail = (path: Path, message: string, extra?: Omit<FlowIssue, 'path' | 'message'>) => {
    broken = true;
    add(path, message, extra);
  };
  const { at } = scope;
  const inSubgraph = scope.ref !== null;
  const byId = new Map<string, FlowNode>();
  scope.nodes.forEach((node, i) => {
    if (byId.has(node.id)) fail([...at, 'nodes', i, 'id'], `duplicate node id "${node.id}"`, { node: node.id });
    else byId.set(node.id, node);
    if (node.id === EXIT_TARGET) fail([...at, 'nodes', i, 'id'], `"${EXIT_TARGET}" is reserved for leaving a subgraph`);
    if (node.id === UNREADABLE_TERMINAL_ID)
      fail([...at, 'nodes', i, 'id'], `"${UNREADABLE_TERMINAL_ID}" is reserved for the stop terminal a flow without "fallback" ends in when a path node gives up`);
  });
  const entryField = inSubgraph ? 'entry' : 'start';
  if (scope.entry !== undefined && !byId.has(scope.entry)) fail([...at, entryField], `no node has the id "${scope.entry}"${didYouMean(scope.entry, byId.keys())}`);

  const nodeCheck = (i: number): NodeCheckContext => ({ doc, at: [...at, 'nodes', i], inSubgraph, add, guard });
  // Each kind checks its own fields (a question its categories, a path node that it is in the main flow, ...).
  scope.nodes.forEach((node, i) => kindOf(node).check?.(node, nodeCheck(i)));

  // An edge whose target is no node (nor a likely misspelling of one): where it was meant to lead is unknown.
  let lostTarget = false;
  // Edges: endpoints exist, outcomes fit their node, and within a group (one
  // node, one outcome) guards come first and at most one `else` comes last.
  const groups = new Map<string, number[]>();
  scope.edges.forEach((edge, i) => {
    const where: Path = [...at, 'edges', i];
    const from = byId.get(edge.from);
    const to = edge.to === EXIT_TARGET ? undefined : byId.get(edge.to);
    if (!from) fail([...where, 'from'], `no node has the id "${edge.from}"${didYouMean(edge.from, byId.keys())}`);
    if (edge.to === EXIT_TARGET && !inSubgraph) {
      fail([...where, 'to'], `"${EXIT_TARGET}" leaves a subgraph: the main flow ends in terminals`);
      lostTarget = true;
    } else if (edge.to !== EXIT_TARGET && !to) {
      fail([...where, 'to'], `no node has the id "${edge.to}"${didYouMean(edge.to, inSubgraph ? [...byId.keys(), EXIT_TARGET] : byId.keys())}`);
      if (closestName(edge.to, byId.keys()) === undefined) lostTarget = true;
    }
    if (!from) return;
    if (OUTCOMES_BY_KIND[from.kind].length === 0) {
      fail([...where, 'from'], `"${edge.from}" is a ${from.kind}: nothing leaves it`, { node: from.id });
      return;
    }
    const outcome = edge.on ?? defaultOutcome(from)!;
    if (!OUTCOMES_BY_KIND[from.kind].includes(outcome)) {
      fail([...where, 'on'], `a ${from.kind} leaves on ${OUTCOMES_BY_KIND[from.kind].join(' or ')}, not "${outcome}"`, { node: from.id });
      return;
    }
    if (outcome === 'limiting' && to && to.kind !== 'terminal')
      fail([...where, 'to'], `a limiting value ends the flow: "${edge.to}" must be a terminal`, { node: from.id });
    if (!isElseGuard(edge.guard)) guard([...where, 'guard'], edge.guard!, from.id);
    const key = `${edge.from}\u0000${outcome}`;
    groups.set(key, [...(groups.get(key) ?? []), i]);
  });
  for (const indexes of groups.values()) {
    const edges = indexes.map((i) => scope.edges[i]!);
    const from = byId.get(edges[0]!.from)!;
    const outcome = edges[0]!.on ?? defaultOutcome(from)!;
    const firstElse = edges.findIndex((e) => isElseGuard(e.guard));
    const unguarded = kindOf(from).unguardedEdges?.[outcome];
    if (typeof unguarded === 'object') {
      if (firstElse >= 0) fail([...at, 'edges', indexes[firstElse]!], unguarded.forbidden, { node: from.id });
      continue;
    }
    if (firstElse >= 0 && firstElse < edges.length - 1)
      fail([...at, 'edges', indexes[firstElse + 1]!], `"${from.id}" already has an unguarded ("else") edge on "${outcome}" (edges[${indexes[firstElse]}]): edges after it are never taken`, { node: from.id });
    if (firstElse < 0 && unguarded !== 'optional')
      fail([...at, 'edges', indexes.at(-1)!], `the edges of "${from.id}" on "${outcome}" are all guarded: the last one needs to be "else" (or have no guard)`, { node: from.id });
  }

  const has = (id: string, outcome: EdgeOutcome) => groups.has(`${id}\u0000${outcome}`);
  // Each kind checks the edges it needs (a question its `answered` edge, an action its `error` edge, ...).
  scope.nodes.forEach((node, i) => {
    const c: EdgeCheckContext = {
      ...nodeCheck(i),
      has: (outcome) => has(node.id, outcome),
      need: (outcome, what) => {
        if (!has(node.id, outcome)) fail(c.at, `${node.kind} "${node.id}" has no "${outcome}" edge ${what}`, { node: node.id });
      },
      fail,
    };
    kindOf(node).checkEdges?.(node, c);
  });

  // Reachability, along the edges whose ends exist: a node nothing leads to is
  // reported as unreachable even when other edges are broken (a node left
  // unconnected usually lacks its own edges too), unless an edge leads to
  // an unknown node (then where it meant to lead is unknown: no guessing).
  // An edge to a misspelt id counts as leading to the node it was offered for ("did you mean"): one mistake, one error.
  const next = new Map<string, string[]>();
  for (const edge of scope.edges) {
    const to = edge.to === EXIT_TARGET || byId.has(edge.to) ? edge.to : closestName(edge.to, byId.keys());
    if (byId.has(edge.from) && to !== undefined) next.set(edge.from, [...(next.get(edge.from) ?? []), to]);
  }
  // The main flow's fallback and enforced constraints add edges the document does not list.
  const extra = [
    ...(inSubgraph ? [] : [doc.fallback]),
    ...(inSubgraph ? [] : (doc.constraints ?? []).map((c) => c.fallback)),
  ].filter((id): id is string => id !== undefined);
  const entry = scope.entry ?? scope.nodes[0]!.id;
  const reached = closure([entry, ...extra], next);
  if (byId.has(entry) && !lostTarget)
    scope.nodes.forEach((node, i) => {
      if (!reached.has(node.id))
        add([...at, 'nodes', i], `node "${node.id}" is unreachable: no edge leads to it from ${inSubgraph ? 'the entry' : 'the start'} "${entry}"`, { node: node.id });
    });

  // Dead ends and loops, only once the edges are sound.
  if (broken) return;

  const back = new Map<string, string[]>();
  for (const edge of scope.edges) back.set(edge.to, [...(back.get(edge.to) ?? []), edge.from]);
  const ends = inSubgraph ? [EXIT_TARGET] : scope.nodes.filter((n) => n.kind === 'terminal').map((n) => n.id);
  const canEnd = closure(ends, back);
  scope.nodes.forEach((node, i) => {
    if (node.kind === 'terminal' || canEnd.has(node.id) || !reached.has(node.id)) return;
    warn([...at, 'nodes', i], `dead end: from "${node.id}" the ${inSubgraph ? `subgraph can never reach "${EXIT_TARGET}"` : 'flow can never reach a terminal'}`, { node: node.id });
  });

  // Loops that can run with no question asked: through decisions (an endless
  // loop inside one event: refused), or also through actions and questions
  // that may be passed over (`when`, answered already): warned.
  const silent = (node: FlowNode | undefined) => node !== undefined && silenceOf(node, silence) !== 'asks';
  const silentNext = new Map<string, string[]>();
  for (const edge of scope.edges) {
    const from = byId.get(edge.from);
    const to = byId.get(edge.to);
    if (!silent(from) || !silent(to)) continue;
    const outcome = edge.on ?? defaultOutcome(from!);
    if (from!.kind === 'question' && outcome !== 'answered') continue;
    silentNext.set(edge.from, [...(silentNext.get(edge.from) ?? []), edge.to]);
  }
  const reported = new Set<string>();
  for (const id of silentNext.keys()) {
    const cycle = findCycle(id, silentNext);
    if (!cycle || cycle.some((n) => reported.has(n))) continue;
    cycle.forEach((n) => reported.add(n));
    const nodes = cycle.slice(0, -1).map((n) => byId.get(n)!);
    const message = `loop with no question asked: ${cycle.join(' → ')}`;
    if (nodes.every((n) => silenceOf(n, silence) === 'instant'))
      add([...at, 'edges'], `${message} (decisions and questions passed over by \`when\`, within one turn: it may never stop)`, { node: id });
    else warn([...at, 'edges'], `${message} (make sure a guard ends it)`, { node: id });
  }

  // Category questions answered early by one message are passed through when
  // entered again: a loop of them on "answered" would never stop.
  const answeredNext = new Map<string, string[]>();
  for (const edge of scope.edges) {
    const from = byId.get(edge.from);
    const to = byId.get(edge.to);
    if (from?.kind === 'question' && to?.kind === 'question' && from.answer.type === 'category' && (edge.on ?? 'answered') === 'answered' && edge.guard === undefined)
      answeredNext.set(edge.from, [edge.to]);
  }
  for (const id of answeredNext.keys()) {
    const cycle = findCycle(id, answeredNext);
    if (!cycle || cycle.some((n) => reported.has(n))) continue;
    cycle.forEach((n) => reported.add(n));
    add([...at, 'edges'], `questions loop on "answered" with no way out: ${cycle.join(' → ')}`, { node: id });
  }
}

/**
 * Whether passing through a node may ask nothing, as its kind says:
 * `instant` (a decision, a question its `when` passes over: no event
 * between, so an endless loop of them would hang the actor), `silent` (an
 * action: its result is an event), or `asks`.
 */
function silenceOf(node: FlowNode, subgraphs: Map<string, Silence>): Silence {
  return kindOf(node).silence?.(node, subgraphs) ?? 'asks';
}

/**
 * Each subgraph's silence: the loudest of its nodes (a subgraph with one
 * question that is always asked asks). Calls nest; cycles of calls are
 * refused elsewhere, and count as asking here.
 */
function subgraphSilence(doc: FlowDocument): Map<string, Silence> {
  const result = new Map<string, Silence>();
  const rank: Record<Silence, number> = { instant: 0, silent: 1, asks: 2 };
  const visit = (ref: string, stack: string[]): Silence => {
    const known = result.get(ref);
    if (known) return known;
    const sub = doc.subgraphs?.[ref];
    if (!sub || stack.includes(ref)) return 'asks';
    let loudest: Silence = 'instant';
    for (const node of sub.nodes) {
      const s = node.kind === 'subgraph' ? visit(node.ref, [...stack, ref]) : silenceOf(node, result);
      if (rank[s] > rank[loudest]) loudest = s;
    }
    result.set(ref, loudest);
    return loudest;
  };
  for (const ref of Object.keys(doc.subgraphs ?? {})) visit(ref, []);
  return result;
}

/** A path from `start` back to itself through `next`, or undefined. */
function findCycle(start: string, next: Map<string, string[]>): string[] | undefined {
  const stack: { id: string; path: string[] }[] = [{ id: start, path: [start] }];
  const seen = new Set<string>();
  while (stack.length > 0) {
    const { id, path } = stack.pop()!;
    for (const to of next.get(id) ?? []) {
      if (to === start) return [...path, start];
      if (seen.has(to)) continue;
      seen.add(to);
      stack.push({ id: to, path: [...path, to] });
    }
  }
  return undefined;
}

function reaches(from: string, to: string, next: Map<string, string[]>): boolean {
  return closure([from], next).has(to);
}

function closure(starts: string[], next: Map<string, string[]>): Set<string> {
  const reached = new Set(starts);
  const queue = [...starts];
  while (queue.length > 0)
    for (const to of next.get(queue.shift()!) ?? [])
      if (!reached.has(to)) {
        reached.add(to);
        queue.push(to);
      }
  return reached;
}

function pointer(path: Path): string {
  return '/' + path.join('/');
}

/** The answer spec of the question a validator at `path` belongs to. */
function answerSpecAt(doc: FlowDocument, path: Path): AnswerSpec | undefined {
  let at: unknown = doc;
  let spec: AnswerSpec | undefined;
  for (const part of path) {
    at = (at as Record<string | number, unknown> | undefined)?.[part];
    if (typeof at === 'object' && at !== null && (at as { kind?: unknown }).kind === 'question') spec = (at as { answer: AnswerSpec }).answer;
  }
  return spec;
}


/**
 * Places (node ids from the root, joined by ".") name nodes in traces and
 * drawings, and XState joins state ids the same way: with dotted ids
 * (`q.intent`), one place must never read as another, or as a node inside
 * another that it is not inside (`a.b` beside a subgraph call or question
 * `a`, whose states are `a.<child>`).
 */
function checkPlaceIds(doc: FlowDocument, add: (path: Path, message: string, extra?: Omit<FlowIssue, 'path' | 'message'>) => void): void {
  if (!doc.nodes.some((n) => n.id.includes('.')) && !Object.values(doc.subgraphs ?? {}).some((s) => s.nodes.some((n) => n.id.includes('.')))) return;
  const places: { ids: string[]; at: Path }[] = [];
  const walk = (nodes: FlowNode[], at: Path, above: string[], calls: string[]) =>
    nodes.forEach((node, i) => {
      const ids = [...above, node.id];
      places.push({ ids, at: [...at, 'nodes', i, 'id'] });
      const sub = node.kind === 'subgraph' ? doc.subgraphs?.[node.ref] : undefined;
      // Calls that loop are refused elsewhere.
      if (sub && node.kind === 'subgraph' && !calls.includes(node.ref) && calls.length < 32)
        walk(sub.nodes, ['subgraphs', node.ref], ids, [...calls, node.ref]);
    });
  walk(doc.nodes, [], [], []);
  const reported = new Set<string>();
  for (const place of places) {
    const id = place.ids.join('.');
    const key = pointer(place.at);
    if (reported.has(key)) continue;
    // The same ids twice are a duplicate id, reported as such.
    const others = places.filter((other) => other !== place && other.ids.join('\u0000') !== place.ids.join('\u0000'));
    const same = others.some((other) => other.ids.join('.') === id);
    const outer = others.find((other) => id.startsWith(`${other.ids.join('.')}.`) && !(other.ids.length < place.ids.length && other.ids.every((part, i) => place.ids[i] === part)));
    if (!same && !outer) continue;
    reported.add(key);
    add(
      place.at,
      same
        ? `node "${place.ids.at(-1)}" (at "${id}") has the same place as another node: rename one of them`
        : `node id "${place.ids.at(-1)}" reads as a node inside "${outer!.ids.join('.')}" (ids are joined with "." in traces and state ids): rename one of them`,
      { node: place.ids.at(-1)! },
    );
  }
}
