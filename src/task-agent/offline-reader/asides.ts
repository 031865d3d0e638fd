import { TOOL_NAME } from '../../graph/tools/tool.js';
import { isName, STOP, TOOL_WORDS, VERBS } from './lexicon.js';
import { assignsOf, IT, items, mention, POSSESSIVES, propName, status, value, type Mention } from './phrases.js';
import type { Command, Rule } from './grammar.js';
import { Cursor } from './tokens.js';

/**
 * The clauses that are not a graph command: a tool asked for by name, and a
 * statement of what a property should be ("The ticket should be closed"),
 * which the interpreter checks against what was asked before.
 */

// ---------------------------------------------------------------- tools

const PURPOSE = ['to', 'for', 'so', 'so that', 'in order to', 'and', 'about', 'on', 'with'];

/**
 * A tool's name: `send_email`, "the email tool", or after "use" or "call"
 * send_email (a snake_case word; after "with" it could be a property).
 */
const toolName = (c: Cursor, afterVerb: boolean): string | null =>
  c.attempt((c) => {
    c.oneOf(['the']);
    const t = c.take('quoted') ?? c.take('word');
    if (!t || !TOOL_NAME.test(t.text) || (t.kind === 'word' && !isName(t.lower))) return null;
    const named = c.oneOf(TOOL_WORDS) !== null;
    const marked = t.quote === '`' || (afterVerb && t.kind === 'word' && t.text.includes('_'));
    return named || marked ? t.text : null;
  });

export const TOOLS: Rule[] = [
  // Use the `send_email` tool to notify the team; call send_sms.
  (c) => {
    const name = c.oneOf(VERBS.tool) ? toolName(c, true) : null;
    if (!name) return null;
    const purpose = new Cursor(c.rest());
    if (!purpose.done && !PURPOSE.some((p) => purpose.sees(p))) return null;
    purpose.phrase('in order to', 'to');
    return { kind: 'tool', name, task: purpose.rest() };
  },
  // Find all open tickets using the `query_graph` tool; notify the team with `send_email`.
  (c) => {
    for (let at = c.tokens.length - 1; at > 0; at--) {
      const tail = new Cursor(c.tokens, at);
      const name = tail.phrase('using', 'with', 'via', 'through', 'by using', 'by calling') ? toolName(tail, false) : null;
      if (name && tail.done) {
        const words = c.tokens.slice(0, at);
        const task = words.at(-1)?.text === ',' ? words.slice(0, -1) : words;
        // What the tool should do opens with a verb, in words: "send an email to the team".
        const [first] = task;
        if (first?.kind !== 'word' || STOP.has(first.lower) || task.some((t) => t.kind === 'sym' || t.kind === 'punct')) return null;
        c.at = c.tokens.length;
        return { kind: 'tool', name, task };
      }
    }
    return null;
  },
];

// ---------------------------------------------------------------- statements

const MODALS = [
  'should', 'must', 'shall', 'will', 'needs to', 'need to', 'has to', 'have to', 'is to', 'ought to', 'is supposed to',
  'is meant to', 'is required to', 'has got to',
];

/** "should be", "must be set to", "is"; null when there is no verb of being. */
const beVerb = (c: Cursor): { modal: boolean } | null => {
  if (c.phrase(...MODALS)) return c.phrase('be set to', 'be', 'remain', 'stay') ? { modal: true } : null;
  return c.oneOf(['is', 'are']) ? { modal: false } : null;
};

const statementOf = (about: Mention, name: string, c: Cursor): Command | null => {
  const be = beVerb(c);
  const v = be && value(c);
  return be && v ? { kind: 'statement', about, props: [{ name, value: v.value, raw: v.raw }], modal: be.modal } : null;
};

export const STATEMENTS: Rule[] = [
  // Its status must be closed.
  (c) => {
    const name = c.oneOf(POSSESSIVES) ? propName(c) : null;
    return name ? statementOf(IT, name, c) : null;
  },
  // The status of the ticket should be closed.
  (c) => {
    c.oneOf(['the']);
    const name = propName(c);
    const about = name && c.oneOf(['of']) ? mention(c) : null;
    return name && about ? statementOf(about, name, c) : null;
  },
  // The ticket's status should be closed.
  (c) => {
    const about = mention(c);
    const name = about && c.take('poss') ? propName(c) : null;
    return about && name ? statementOf(about, name, c) : null;
  },
  // The ticket should be closed; status should be closed.
  (c) => {
    c.oneOf(['the']);
    const word = c.take('word');
    const be = word && isName(word.lower) ? beVerb(c) : null;
    const v = be && value(c);
    return word && be && v ? { kind: 'headStatement', word: word.text, value: v, modal: be.modal } : null;
  },
  // Ticket TICKET-456 must be closed; it should have priority high.
  (c) => {
    const about = mention(c);
    if (!about) return null;
    const had = c.attempt((c) => {
      const list = c.phrase(...MODALS) && c.oneOf(['have']) ? items(c) : null;
      return list && assignsOf(list);
    });
    if (had) return { kind: 'statement', about, props: had, modal: true };
    const be = beVerb(c);
    const assign = be && status(c);
    return be && assign ? { kind: 'statement', about, props: [assign], modal: be.modal } : null;
  },
];

/** "Make sure it is open": a statement of what is asked. */
export const ensured: Rule = (c) => {
  if (!c.phrase('make sure that', 'make sure', 'ensure that', 'ensure')) return null;
  for (const rule of STATEMENTS) {
    const read = c.attempt((c) => {
      const statement = rule(c);
      return statement && c.done ? statement : null;
    });
    if (read?.kind === 'statement' || read?.kind === 'headStatement') return { ...read, modal: true };
  }
  return null;
};
