import { VERBS } from './lexicon.js';
import { graphTail, items, assignsOf, label, mention, neighbours, propName, status, statusValue, type Assign } from './phrases.js';
import type { Command, Rule } from './grammar.js';
import type { Cursor } from './tokens.js';

/** The clauses that read the graph: find nodes by label and properties, one node, or run a Cypher query. */

// ---------------------------------------------------------------- find

/** "with status closed", "whose status is 'open'", "that are open". */
const filter = (c: Cursor): { where: Assign[]; key: string | null } | null =>
  c.attempt((c) => {
    if (c.phrase('that are', 'which are', 'that is', 'which is', 'who are')) {
      const assign = status(c);
      return assign ? { where: [assign], key: null } : null;
    }
    if (!c.phrase('with', 'where', 'whose', 'having', 'that have', 'that has', 'which have', 'which has', 'who have')) return null;
    const list = items(c, { key: true });
    if (!list) return null;
    const keys = list.flatMap((i) => (i.kind === 'key' ? [i.key] : []));
    const where = list.flatMap((i) => (i.kind === 'prop' ? [i.assign] : []));
    return keys.length <= 1 ? { where, key: keys[0] ?? null } : null;
  });

/** Which nodes: "all open tickets", "the Ticket nodes", "every ticket", "nodes". */
const nodeSet = (c: Cursor): { label: string | null; where: Assign[] } | null =>
  c.attempt((c) => {
    const quantifier = c.oneOf(['all', 'every', 'each', 'any']);
    if (quantifier === 'all') c.phrase('of the', 'the');
    else if (!quantifier) c.oneOf(['the']);
    const where: Assign[] = [];
    for (let adjective = statusValue(c); adjective; adjective = statusValue(c)) where.push({ name: 'status', value: adjective, raw: adjective });
    if (c.oneOf(['nodes'])) return { label: null, where };
    const read = label(c);
    if (!read) return null;
    const nodesWord = c.oneOf(['nodes', 'node']);
    const listed = read.plural || nodesWord === 'nodes' || (quantifier !== null && quantifier !== 'all');
    return listed ? { label: read.label, where } : null;
  });

const findNodes = (set: { label: string | null; where: Assign[] }, limit: number | null, c: Cursor): Command | null => {
  const more = filter(c);
  const around = neighbours(c);
  graphTail(c);
  if (more?.key) return null;
  return { kind: 'findNodes', label: set.label, where: [...set.where, ...(more?.where ?? [])], limit, neighbours: around };
};

export const FINDS: Rule[] = [
  // Find all open tickets; list the first 5 Ticket nodes with status closed.
  (c) => {
    if (!c.oneOf(VERBS.query)) return null;
    c.phrase('for');
    c.oneOf(['me', 'us']);
    c.phrase('the first', 'first', 'the top', 'top');
    const count = c.peek();
    const limit = count?.kind === 'word' && /^[1-9]\d?$|^100$/.test(count.text) ? (c.at++, Number(count.text)) : null;
    const set = nodeSet(c);
    return set && findNodes(set, limit, c);
  },
  // Find ticket TICKET-123 (and its neighbours).
  (c) => {
    if (!c.oneOf(VERBS.query)) return null;
    c.oneOf(['me', 'us']);
    const target = mention(c);
    const around = target && neighbours(c);
    graphTail(c);
    return target && { kind: 'findNode', target, neighbours: around };
  },
  // Which tickets are open? Which users have name Alice? What tickets are there?
  (c) => {
    if (!c.oneOf(['which', 'what'])) return null;
    const set = nodeSet(c);
    if (!set) return null;
    if (c.phrase('are there', 'exist', 'are in the graph')) return findNodes(set, null, c);
    if (c.oneOf(['are', 'is'])) {
      const assign = status(c);
      return assign ? findNodes({ ...set, where: [...set.where, assign] }, null, c) : null;
    }
    if (!c.oneOf(['have', 'has'])) return findNodes(set, null, c);
    const list = items(c);
    const where = list && assignsOf(list);
    return where && findNodes({ ...set, where: [...set.where, ...where] }, null, c);
  },
  // What is the status of ticket TICKET-123? What are the properties of user john.doe? Show me the status of T-1.
  (c) => {
    if (!c.phrase("what's", 'what is', 'what are') && !(c.oneOf(VERBS.query) && (c.oneOf(['me', 'us']), true))) return null;
    c.oneOf(['the']);
    if (!c.oneOf(['properties']) && !propName(c)) return null;
    const target = c.oneOf(['of']) ? mention(c) : null;
    return target && { kind: 'findNode', target, neighbours: null };
  },
];

// ---------------------------------------------------------------- cypher

const CYPHER = /^(?:optional\s+match|match|with|unwind|return)\b/i;

export const cypher: Rule = (c) => {
  if (!c.oneOf(['run', 'execute'])) return null;
  c.oneOf(['the', 'this', 'a', 'an']);
  c.oneOf(['cypher', 'opencypher']);
  c.oneOf(['query', 'statement']);
  const q = c.take('quoted');
  return q && CYPHER.test(q.text) ? { kind: 'cypher', query: q.text } : null;
};
