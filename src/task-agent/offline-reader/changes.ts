import { ARTICLES, NODE_WORDS, PROPERTY_WORDS, STATUS_VERBS, VERBS } from './lexicon.js';
import {
  assignsOf,
  edgeHead,
  edgeType,
  graphTail,
  IT,
  items,
  key,
  mention,
  POSSESSIVES,
  propName,
  singularLabel,
  status,
  value,
  withProps,
  type Assign,
  type Mention,
} from './phrases.js';
import type { Command, Rule } from './grammar.js';
import type { Cursor } from './tokens.js';

/** The clauses that change the graph: create a node or an edge, change properties, delete a node or an edge. */

// ---------------------------------------------------------------- create

export const createNode: Rule = (c) => {
  const verb = c.oneOf(VERBS.create);
  c.oneOf(ARTICLES);
  if (!c.oneOf(['new']) && !verb) return null;
  const bare = c.oneOf(NODE_WORDS);
  let name = bare ? null : singularLabel(c);
  if (!bare && !name) return null;
  if (!bare) c.oneOf(NODE_WORDS);
  if (bare && c.phrase('labelled', 'labeled', 'of type', 'with label', 'with the label')) name = singularLabel(c);
  const direct = key(c) ?? c.attempt((c) => (c.oneOf(['keyed']) ? key(c) : null));
  const list = c.attempt((c) => {
    c.phrase(',');
    return c.phrase('with', 'having', 'that has', 'which has') ? items(c, { key: true, label: bare !== null }) : null;
  }) ?? [];
  graphTail(c);
  const keys = [...(direct ? [direct] : []), ...list.flatMap((i) => (i.kind === 'key' ? [i.key] : []))];
  const labels = [...(name ? [name] : []), ...list.flatMap((i) => (i.kind === 'label' ? [i.label] : []))];
  const props = list.flatMap((i) => (i.kind === 'prop' ? [i.assign] : []));
  const [oneKey] = keys;
  const [oneLabel] = labels;
  return keys.length === 1 && labels.length === 1 && oneKey && oneLabel ? { kind: 'createNode', label: oneLabel, key: oneKey, props } : null;
};

const fromTo = (c: Cursor): { from: Mention; to: Mention } | null => {
  if (!c.oneOf(['from'])) return null;
  const from = mention(c);
  if (!from || !c.oneOf(['to'])) return null;
  const to = mention(c);
  return to && { from, to };
};

export const createEdge: Rule = (c) => {
  if (!c.oneOf(VERBS.create)) return null;
  const type = edgeHead(c);
  const ends = type && fromTo(c);
  if (!type || !ends) return null;
  const props = withProps(c) ?? [];
  graphTail(c);
  return { kind: 'createEdge', type, ...ends, props };
};

/** "connect user u1 to ticket T-1 with a REPORTS edge", "link A to B as REPORTS". */
export const linkNodes: Rule = (c) => {
  if (!c.oneOf(VERBS.link)) return null;
  const from = mention(c);
  if (!from || !c.oneOf(['to', 'with'])) return null;
  const to = mention(c);
  if (!to || !c.phrase('with', 'using', 'via', 'through', 'by', 'as')) return null;
  const type = edgeHead(c) ?? c.attempt((c) => (c.oneOf(ARTICLES), edgeType(c)));
  return type ? { kind: 'createEdge', type, from, to, props: [] } : null;
};

// ---------------------------------------------------------------- update

/** "status to 'closed'", "status from open to closed", "status = closed". */
const propTo = (c: Cursor): Assign | null =>
  c.attempt((c) => {
    const name = propName(c);
    if (!name) return null;
    if (c.oneOf(['from']) && !value(c)) return null;
    if (!c.phrase('to', '=')) return null;
    c.oneOf(['be']);
    const v = value(c);
    return v && { name, value: v.value, raw: v.raw };
  });

/** More of them: "and the priority to high", ", its owner to bob". */
const moreTo = (c: Cursor, first: Assign): Assign[] => {
  const all = [first];
  for (;;) {
    const next = c.attempt((c) => (c.phrase(', and', ',', 'and') ? (c.oneOf(['the', ...POSSESSIVES]), propTo(c)) : null));
    if (!next) return all;
    all.push(next);
  }
};

const update = (target: Mention, set: Assign[]): Command => ({ kind: 'update', target, set, unset: [] });

export const UPDATES: Rule[] = [
  // Update the status of ticket TICKET-123 to 'in progress'.
  (c) => {
    if (!c.oneOf(VERBS.update)) return null;
    c.oneOf(['the']);
    const name = propName(c);
    const target = name && c.oneOf(['of']) ? mention(c) : null;
    if (!name || !target) return null;
    if (c.oneOf(['from']) && !value(c)) return null;
    const v = c.phrase('to', '=') ? (c.oneOf(['be']), value(c)) : null;
    return v && update(target, moreTo(c, { name, value: v.value, raw: v.raw }));
  },
  // Set ticket TICKET-2's status to closed.
  (c) => {
    if (!c.oneOf(VERBS.update)) return null;
    const target = mention(c);
    const first = target && c.take('poss') ? propTo(c) : null;
    return target && first && update(target, moreTo(c, first));
  },
  // Mark ticket T-1 as resolved; set ticket T-1 to closed; change the ticket to 'in progress'.
  (c) => {
    const mark = c.oneOf(VERBS.mark);
    if (!mark && !c.oneOf(VERBS.update)) return null;
    const target = mention(c);
    if (!target || (!c.oneOf(['as', 'to']) && !mark)) return null;
    const assign = status(c);
    return assign ? update(target, [assign]) : null;
  },
  // Set status to closed on ticket T-1; set its status to closed; set the status to closed (of the one node named before).
  (c) => {
    if (!c.oneOf(VERBS.update)) return null;
    if (!c.oneOf(POSSESSIVES)) c.oneOf(['the']);
    const first = propTo(c);
    if (!first) return null;
    const set = moreTo(c, first);
    if (c.done) return update(IT, set);
    const target = c.oneOf(['on', 'for', 'of', 'in']) ? mention(c) : null;
    return target && update(target, set);
  },
  // Update ticket T-7: set status to closed.
  (c) => {
    if (!c.oneOf(VERBS.update)) return null;
    const target = mention(c);
    if (!target || !c.phrase(':')) return null;
    c.oneOf(['set', 'change']);
    c.oneOf(['the', ...POSSESSIVES]);
    const first = propTo(c);
    return first && update(target, moreTo(c, first));
  },
  // Update ticket T-1 with status closed and priority high.
  (c) => {
    if (!c.oneOf(VERBS.update)) return null;
    const target = mention(c);
    if (!target || !c.phrase('with', 'setting', 'by setting', ':', 'to have', 'so that its', 'so that')) return null;
    const list = items(c);
    const set = list && assignsOf(list);
    return set && update(target, set);
  },
  // Close ticket T-1.
  (c) => {
    const verb = c.oneOf([...STATUS_VERBS.keys()]);
    const status = verb ? STATUS_VERBS.get(verb) : undefined;
    const target = status ? mention(c) : null;
    return status && target ? update(target, [{ name: 'status', value: status, raw: status }]) : null;
  },
  // Remove the priority property from ticket T-1; unset the assignee of T-1.
  (c) => {
    const verb = c.oneOf(VERBS.unset) ?? c.oneOf(VERBS.delete);
    if (!verb) return null;
    c.oneOf(['the']);
    const before = c.oneOf(PROPERTY_WORDS);
    const name = propName(c);
    const after = !before && c.oneOf(PROPERTY_WORDS);
    if (!name || (!before && !after && !VERBS.unset.has(verb))) return null;
    const target = c.oneOf(['from', 'of', 'on']) ? mention(c) : null;
    return target && { kind: 'update', target, set: [], unset: [name] };
  },
];

// ---------------------------------------------------------------- delete

export const deleteEdge: Rule = (c) => {
  if (!c.oneOf(VERBS.delete)) return null;
  const type = edgeHead(c);
  const ends = type && fromTo(c);
  graphTail(c);
  return type && ends ? { kind: 'deleteEdge', type, ...ends } : null;
};

/** "and its edges", "with all of its relationships", "detach". */
const detachTail = (c: Cursor): boolean =>
  c.attempt((c) => {
    if (c.phrase('with detach', 'detach', 'detaching it')) return true;
    if (!c.phrase('and', 'along with', 'together with', 'with', 'including', 'plus')) return null;
    c.phrase('all of', 'all');
    return c.oneOf(['its']) && c.oneOf(['edges', 'relationships', 'connections', 'links', 'relations']) ? true : null;
  }) ?? false;

export const deleteNode: Rule = (c) => {
  const combined = c.oneOf(['detach-delete']);
  const first = combined !== null || c.oneOf(VERBS.detach) !== null;
  if (!combined && !c.oneOf(VERBS.delete)) return null;
  const target = mention(c);
  if (!target) return null;
  const detach = detachTail(c) || first;
  graphTail(c);
  return { kind: 'deleteNode', target, detach };
};
