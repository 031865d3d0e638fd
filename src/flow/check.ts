import { OUTCOMES_BY_KIND, defaultOutcome } from './graph.js';
import type { FlowDocument, FlowNode } from './schema.js';

/** One problem in a document: where (a path of keys and indexes) and what. */
export interface FlowIssue {
  path: (string | number)[];
  message: string;
}

const lower = (s: string) => s.toLowerCase();

/**
 * The rules a schema cannot state field by field: ids are unique, edges point at
 * nodes that exist and leave on outcomes their node has, limiting values are
 * categories, every node is reachable and every question can be left.
 */
export function checkFlow(doc: FlowDocument): FlowIssue[] {
  const issues: FlowIssue[] = [];
  const add = (path: (string | number)[], message: string) => issues.push({ path, message });

  const byId = new Map<string, FlowNode>();
  doc.nodes.forEach((node, i) => {
    if (byId.has(node.id)) add(['nodes', i, 'id'], `duplicate node id "${node.id}"`);
    else byId.set(node.id, node);
  });

  if (doc.start !== undefined && !byId.has(doc.start)) add(['start'], `no node has the id "${doc.start}"`);

  doc.nodes.forEach((node, i) => {
    if (node.kind !== 'question') return;
    checkCategories(
      { categories: node.answer.categories, limitingValues: node.limitingValues, synonyms: node.answer.synonyms },
      { categories: ['nodes', i, 'answer', 'categories'], limitingValues: ['nodes', i, 'limitingValues'], synonyms: ['nodes', i, 'answer', 'synonyms'] },
      add,
    );
  });

  const leaving = new Map<string, number>();
  doc.edges.forEach((edge, i) => {
    const from = byId.get(edge.from);
    const to = byId.get(edge.to);
    if (!from) add(['edges', i, 'from'], `no node has the id "${edge.from}"`);
    if (!to) add(['edges', i, 'to'], `no node has the id "${edge.to}"`);
    if (!from) return;
    if (from.kind === 'terminal') {
      add(['edges', i, 'from'], `"${edge.from}" is a terminal: nothing leaves it`);
      return;
    }
    const outcome = edge.on ?? defaultOutcome(from)!;
    if (!OUTCOMES_BY_KIND[from.kind].includes(outcome))
      add(['edges', i, 'on'], `a ${from.kind} leaves on ${OUTCOMES_BY_KIND[from.kind].join(' or ')}, not "${outcome}"`);
    const key = `${edge.from} ${outcome}`;
    if (leaving.has(key)) add(['edges', i], `"${edge.from}" already has an edge on "${outcome}" (edges[${leaving.get(key)}])`);
    else leaving.set(key, i);
    if (outcome === 'limiting' && to && to.kind !== 'terminal')
      add(['edges', i, 'to'], `a limiting value ends the flow: "${edge.to}" must be a terminal`);
  });

  const has = (id: string, outcome: string) => leaving.has(`${id} ${outcome}`);
  doc.nodes.forEach((node, i) => {
    if (node.kind === 'question') {
      if (!has(node.id, 'answered')) add(['nodes', i], `question "${node.id}" has no "answered" edge to continue on`);
      const limiting = (node.limitingValues ?? []).length > 0;
      if (limiting && !has(node.id, 'limiting'))
        add(['nodes', i, 'limitingValues'], `question "${node.id}" has limiting values but no "limiting" edge to stop on`);
      if (!limiting && has(node.id, 'limiting'))
        add(['nodes', i], `question "${node.id}" has a "limiting" edge but no limiting values`);
    }
    if (node.kind === 'confirmation') {
      if (!has(node.id, 'confirmed')) add(['nodes', i], `confirmation "${node.id}" has no "confirmed" edge`);
      if (!has(node.id, 'edit')) add(['nodes', i], `confirmation "${node.id}" has no "edit" edge`);
    }
  });

  doc.migrations?.forEach((m, i) => {
    if (String(m.from) === String(doc.version)) add(['migrations', i, 'from'], `a migration cannot start from the flow's own version ${doc.version}`);
    for (const [from, to] of Object.entries(m.nodes))
      if (!byId.has(to)) add(['migrations', i, 'nodes', from], `no node has the id "${to}"`);
  });

  if (issues.length > 0) return issues;

  // Answered questions are passed through when entered again (after an
  // extraction answered several at once): a loop of them would never stop.
  const answeredNext = new Map<string, string>();
  for (const edge of doc.edges) {
    const from = byId.get(edge.from);
    if (from?.kind === 'question' && (edge.on ?? 'answered') === 'answered') answeredNext.set(edge.from, edge.to);
  }
  const reported = new Set<string>();
  for (const start of answeredNext.keys()) {
    const walk = [start];
    for (let next = answeredNext.get(start); next !== undefined; next = answeredNext.get(next)) {
      if (next === start) {
        if (!walk.some((id) => reported.has(id))) {
          walk.forEach((id) => reported.add(id));
          add(['edges'], `questions loop on "answered" with no way out: ${[...walk, start].join(' → ')}`);
        }
        break;
      }
      if (walk.includes(next)) break;
      walk.push(next);
    }
  }

  const startId = doc.start ?? doc.nodes[0]!.id;
  const reached = new Set<string>([startId]);
  const queue = [startId];
  while (queue.length > 0) {
    const id = queue.shift()!;
    for (const edge of doc.edges)
      if (edge.from === id && !reached.has(edge.to)) {
        reached.add(edge.to);
        queue.push(edge.to);
      }
  }
  doc.nodes.forEach((node, i) => {
    if (!reached.has(node.id)) add(['nodes', i], `node "${node.id}" is never reached from "${startId}"`);
  });

  return issues;
}

type Path = (string | number)[];

/**
 * Categories are unique (ignoring case), limiting values and synonym keys are
 * categories, and no phrase means two categories. Shared by flow documents and
 * gate configs, each with its own paths.
 */
export function checkCategories(
  gate: { categories: string[]; limitingValues?: string[] | undefined; synonyms?: Record<string, string[]> | undefined },
  paths: { categories: Path; limitingValues: Path; synonyms: Path },
  add: (path: Path, message: string) => void,
): void {
  const { categories } = gate;
  const known = new Set<string>();
  categories.forEach((category, j) => {
    if (known.has(lower(category))) add([...paths.categories, j], `duplicate category "${category}"`);
    known.add(lower(category));
  });
  gate.limitingValues?.forEach((value, j) => {
    if (!known.has(lower(value)))
      add([...paths.limitingValues, j], `limiting value "${value}" is not one of the categories (${categories.join(', ')})`);
  });
  const phraseOwner = new Map<string, string>();
  const synonymKeys = new Set<string>();
  for (const [category, phrases] of Object.entries(gate.synonyms ?? {})) {
    // The matcher finds a category's list ignoring case: two spellings would hide one list.
    if (synonymKeys.has(lower(category))) add([...paths.synonyms, category], `synonyms for "${category}" are given twice (keys differ only in case)`);
    synonymKeys.add(lower(category));
    if (!known.has(lower(category)))
      add([...paths.synonyms, category], `synonyms given for "${category}", which is not one of the categories (${categories.join(', ')})`);
    phrases.forEach((phrase, j) => {
      const owner = phraseOwner.get(lower(phrase)) ?? categories.find((c) => lower(c) === lower(phrase));
      if (owner !== undefined && lower(owner) !== lower(category))
        add([...paths.synonyms, category, j], `"${phrase}" already means "${owner}"`);
      phraseOwner.set(lower(phrase), category);
    });
  }
}
