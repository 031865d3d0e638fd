import type { ASTNode } from '@marcbachmann/cel-js';
import type { InputSpec } from '../../inputs/spec.js';
import { booleanLabels, type AnswerSpec } from '../fields.js';
import { didYouMean } from '../../extract/suggest.js';
import { guardAst, type GuardKind, type GuardProblem } from './cel.js';

/**
 * Guards typed by what they read. CEL sees `answers` as a map of anything, so
 * `answers.visit_type == 'Emergncy'` type-checks and is simply never true.
 * The flow knows better: each answer key has an answer type (a category with
 * its categories, a number, a yes/no, ...). This walks the guard's syntax
 * tree (cel-js's AST, never the text) and refuses reads of keys nothing
 * gives, comparisons of an answer with a value it can never equal, and
 * answers used as true/false that are not yes/no.
 */

/** The type of an answer a guard reads: a question's answer, or an input node's input (a yes/no, an enum's options, ...). */
export type GuardAnswerType = AnswerSpec | InputSpec;

/** What the guards of one flow may read, with types. */
export interface GuardVocabulary {
  /** Every answer key something gives (a question, an action's `assign`, a declared input, an input node's input), with its answer type when known (an action's output has none). */
  answers: ReadonlyMap<string, GuardAnswerType | undefined>;
  /** The flow's constraint names (`constraints.<name>`). */
  constraints: ReadonlySet<string>;
  /** The flow's path ids (`context.path.locked`, `.tentative`); undefined when the flow has no paths. */
  paths: readonly string[] | undefined;
  /** For a validator: the answer type of `value`, the answer it checks. */
  value?: AnswerSpec | undefined;
}

/** What a read can hold: a base type, and the only strings it can be (categories, path ids). */
interface ValueType {
  /** How a person reads it in a message: `answers.visit_type`, `value`, `context.path.locked`. */
  name: string;
  base: 'string' | 'number' | 'boolean' | 'date';
  /** The only values it can hold (a category question's categories, the path ids). */
  only?: { values: readonly string[]; what: string };
  /** May be null (a path not chosen yet). */
  nullable?: boolean;
  /** A yes/no's words for true and false (its buttons). */
  labels?: { trueLabel: string; falseLabel: string };
}

/** The problems of a guard that CEL itself accepted (see `checkGuard`): none when it reads and compares what the flow gives. */
export function guardTypeProblems(source: string, kind: GuardKind, vocabulary: GuardVocabulary): GuardProblem[] {
  let ast: ASTNode;
  try {
    ast = guardAst(source, kind);
  } catch {
    return []; // Refused by `checkGuard` already.
  }
  const problems: GuardProblem[] = [];
  const report = (node: ASTNode, code: string, message: string) => problems.push({ code, message, position: node.range.start });
  const typeOf = (node: ASTNode): ValueType | undefined => readType(node, kind, vocabulary);

  const visit = (node: ASTNode, asCondition: boolean): void => {
    // Reads of names the flow does not have.
    const key = answerKeyOf(node);
    if (key !== undefined && !vocabulary.answers.has(key)) {
      // `answers.q.intent` reads the key `q`: a dotted key is read as `answers['q.intent']`.
      const dotted = [...vocabulary.answers.keys()].find((k) => k.startsWith(`${key}.`));
      const hint = dotted !== undefined ? ` (did you mean answers['${dotted}']?)` : didYouMean(key, vocabulary.answers.keys()) || ' (an answer the host gives at start is declared in "inputs")';
      report(node, 'unknown_answer', `no question or action gives "answers.${key}"${hint}`);
    }
    const constraint = fieldOf(node, 'constraints');
    if (constraint !== undefined && !vocabulary.constraints.has(constraint))
      report(node, 'unknown_constraint', `the flow has no constraint "${constraint}"${didYouMean(constraint, vocabulary.constraints)}`);
    if (vocabulary.paths === undefined && fieldOf(node, 'context') === 'path') report(node, 'no_paths', 'reads context.path, but the flow has no paths');

    // A read used as true or false must be a yes/no.
    if (asCondition) {
      const type = typeOf(node);
      if (type && type.base !== 'boolean')
        report(node, 'not_boolean', `${type.name} is ${describeType(type)}, not true or false: compare it${type.only ? `, e.g. ${type.name} == '${type.only.values[0]}'` : ''}`);
    }

    switch (node.op) {
      case '==':
      case '!=':
      case '<':
      case '<=':
      case '>':
      case '>=':
        compare(node, node.args[0], node.args[1]);
        break;
      case 'in': {
        const [item, list] = node.args;
        const type = typeOf(item);
        if (type && list.op === 'list') for (const element of list.args) checkLiteral(type, element, '==');
        // `'key' in answers` asks whether an answer was given: the key must be one something gives.
        const asked = literalOf(item)?.value;
        if (isId(list, 'answers') && typeof asked === 'string' && !vocabulary.answers.has(asked))
          report(item, 'unknown_answer', `no question or action gives "answers.${asked}"${didYouMean(asked, vocabulary.answers.keys())}`);
        break;
      }
    }
    if (node.op === 'rcall' || node.op === 'call') call(node);
    const condition = node.op === '&&' || node.op === '||' || node.op === '!_';
    children(node).forEach((child, i) => visit(child, condition || (node.op === '?:' && i === 0)));
  };

  const compare = (operator: ASTNode, left: ASTNode, right: ASTNode) => {
    const [l, r] = [typeOf(left), typeOf(right)];
    if (l && r) {
      if (!comparable(l, r)) report(operator, 'type_mismatch', `${l.name} is ${describeType(l)} and ${r.name} is ${describeType(r)}: they are never equal`);
      return;
    }
    if (l) checkLiteral(l, right, operator.op);
    else if (r) checkLiteral(r, left, operator.op);
  };

  /**
   * A function called on a read (`answers.n.size()`, `size(answers.n)`): one
   * that applies to what the read holds. And a pattern written in the guard
   * (`matches(…, '[a-')`) must be a regular expression: cel-js makes it one
   * only when the guard runs, and a guard that throws is false.
   */
  const call = (node: ASTNode) => {
    const { name, receiver, args } = callOf(node);
    const type = receiver && typeOf(receiver);
    const need = TEXT_FUNCTIONS.get(name);
    if (type && need && type.base !== 'string' && type.base !== 'date')
      report(node, 'wrong_function', `${type.name} is ${describeType(type)}: ${name}() ${need}, it does not apply to ${describeType(type)}${type.base === 'number' ? ` (compare the number itself, e.g. ${type.name} > 2.0)` : ''}`);
    const pattern = name === 'matches' ? args[0] && literalOf(args[0])?.value : undefined;
    if (typeof pattern === 'string') {
      try {
        new RegExp(pattern);
      } catch (error) {
        report(args[0]!, 'invalid_pattern', `'${pattern}' is not a regular expression (${(error as Error).message.replace(/^Invalid regular expression: \/.*\/[a-z]*: /, '')}): the guard would fail whenever it runs`);
      }
    }
  };

  /** A literal compared with a read of `type`: one it can hold. */
  const checkLiteral = (type: ValueType, node: ASTNode, op: string) => {
    const literal = literalOf(node);
    if (literal === undefined) return;
    const { value } = literal;
    if (value === null) {
      if (!type.nullable)
        report(node, 'null_compare', `${type.name} is never null: to test whether it was given, write has(${type.name})`);
      return;
    }
    const got = describeLiteral(value);
    switch (type.base) {
      case 'number':
        if (typeof value !== 'number' && typeof value !== 'bigint') {
          const asNumber = typeof value === 'string' && value.trim() !== '' && Number.isFinite(Number(value)) ? Number(value) : undefined;
          report(node, 'type_mismatch', `${type.name} is a number: compare it with a number, not ${got} (e.g. ${type.name} ${op} ${numberText(asNumber ?? 1)})`);
        }
        return;
      case 'boolean':
        if (typeof value !== 'boolean') {
          // The text of a button (its label), or a yes-like word, meant true.
          const said = typeof value === 'string' ? value.trim().toLowerCase() : '';
          const truthy = said === type.labels?.trueLabel.toLowerCase() || (said !== type.labels?.falseLabel.toLowerCase() && /^(true|yes|y)\b/.test(said));
          report(node, 'type_mismatch', `${type.name} is a yes/no: compare it with true or false, not ${got} (e.g. ${type.name} == ${truthy ? 'true' : 'false'})`);
        }
        return;
      case 'date':
        if (typeof value !== 'string' || !/^\d{4}-\d{2}-\d{2}$/.test(value) || Number.isNaN(Date.parse(`${value}T00:00:00Z`)))
          report(node, 'type_mismatch', `${type.name} is a date: compare it with a date written 'YYYY-MM-DD', not ${got} (e.g. ${type.name} ${op} '2026-12-01')`);
        return;
      case 'string':
        if (typeof value !== 'string') {
          report(node, 'type_mismatch', `${type.name} is ${describeType(type)}: compare it with text in quotes, not ${got} (e.g. ${type.name} ${op} '${type.only?.values[0] ?? String(value)}')`);
          return;
        }
        if (type.only && !type.only.values.includes(value))
          report(
            node,
            'not_a_category',
            `'${value}' is not one of the ${type.only.what} of ${type.name} (${type.only.values.join(', ')})${didYouMean(value, type.only.values)}`,
          );
        return;
    }
  };

  visit(ast, true);
  return problems;
}

/** Functions on text, and what each does (for the message when one is called on a number or a yes/no). */
const TEXT_FUNCTIONS = new Map([
  ['size', 'counts the characters of text'],
  ['matches', 'matches text against a pattern'],
  ['startsWith', 'reads the start of text'],
  ['endsWith', 'reads the end of text'],
  ['contains', 'looks inside text'],
  ['lowerAscii', 'changes the case of text'],
  ['upperAscii', 'changes the case of text'],
  ['trim', 'trims text'],
  ['replace', 'changes text'],
  ['split', 'splits text'],
  ['substring', 'cuts text'],
  ['indexOf', 'looks inside text'],
  ['lastIndexOf', 'looks inside text'],
  ['charAt', 'reads a character of text'],
]);

/** A call's name, what it is called on (`x.f(…)`, or the first argument of `f(x, …)`), and its other arguments. */
function callOf(node: ASTNode): { name: string; receiver: ASTNode | undefined; args: ASTNode[] } {
  const [name, ...rest] = node.args as unknown as [string, ...unknown[]];
  if (node.op === 'rcall') return { name, receiver: rest[0] as ASTNode, args: (rest[1] as ASTNode[] | undefined) ?? [] };
  const all = (rest[0] as ASTNode[] | undefined) ?? [];
  return { name, receiver: all[0], args: all.slice(1) };
}

/**
 * Reads of answers that cannot exist yet where the guard runs: no path to it
 * asks them (see answer-order.ts). A bare read fails, so the guard is false
 * (an error); behind `has(answers.k)` or `'k' in answers` the guard runs, but
 * only an answer given early (one message answering a later question) makes
 * it true (a warning). Keys nothing gives are reported by `guardTypeProblems`.
 */
export function answersReadTooEarly(
  source: string,
  kind: GuardKind,
  known: ReadonlyMap<string, unknown>,
  given: ReadonlySet<string>,
  giver: (key: string) => string | undefined,
  where: string,
): GuardProblem[] {
  let ast: ASTNode;
  try {
    ast = guardAst(source, kind);
  } catch {
    return [];
  }
  const reads: { key: string; node: ASTNode }[] = [];
  const tested = new Set<string>();
  const visit = (node: ASTNode) => {
    const key = answerKeyOf(node);
    if (key !== undefined) reads.push({ key, node });
    if (node.op === 'call' && callOf(node).name === 'has' && callOf(node).receiver) {
      const testedKey = answerKeyOf(callOf(node).receiver!);
      if (testedKey !== undefined) tested.add(testedKey);
    }
    if (node.op === 'in' && isId(node.args[1], 'answers')) {
      const asked = literalOf(node.args[0])?.value;
      if (typeof asked === 'string') {
        tested.add(asked);
        reads.push({ key: asked, node: node.args[0] });
      }
    }
    children(node).forEach(visit);
  };
  visit(ast);
  const problems: GuardProblem[] = [];
  const reported = new Set<string>();
  for (const { key, node } of reads) {
    if (!known.has(key) || given.has(key) || reported.has(key)) continue;
    reported.add(key);
    const by = giver(key);
    const asked = `answers.${key} is given by "${by ?? key}", and no path from the start reaches "${by ?? key}" before ${where}`;
    problems.push(
      tested.has(key)
        ? { code: 'not_yet_given', severity: 'warning', position: node.range.start, message: `${asked}: it is there only if an earlier message answered it early` }
        : { code: 'not_yet_given', position: node.range.start, message: `${asked}: reading it fails, so the guard is false (test has(answers.${key}) first if an early answer is meant)` },
    );
  }
  return problems;
}

/** The answer key a node reads: `answers.key` or `answers['key']`. */
export function answerKeyOf(node: ASTNode): string | undefined {
  return fieldOf(node, 'answers');
}

/** Every answer key a guard reads, with its position (for "did you mean" and listings). */
export function answerKeysRead(source: string, kind: GuardKind = 'guard'): { key: string; position: number }[] {
  let ast: ASTNode;
  try {
    ast = guardAst(source, kind);
  } catch {
    return [];
  }
  const found: { key: string; position: number }[] = [];
  const visit = (node: ASTNode) => {
    const key = answerKeyOf(node);
    if (key !== undefined) found.push({ key, position: node.range.start });
    children(node).forEach(visit);
  };
  visit(ast);
  return found;
}

/** `variable.field` or `variable['field']`: the field's name. */
function fieldOf(node: ASTNode, variable: string): string | undefined {
  if (node.op === '.' && isId(node.args[0], variable)) return node.args[1];
  if (node.op === '[]' && isId(node.args[0], variable) && node.args[1].op === 'value' && typeof node.args[1].args === 'string') return node.args[1].args;
  return undefined;
}

const isId = (node: ASTNode, name: string) => node.op === 'id' && node.args === name;

/** The type of what a node reads, when the flow knows it. */
function readType(node: ASTNode, kind: GuardKind, vocabulary: GuardVocabulary): ValueType | undefined {
  const key = answerKeyOf(node);
  if (key !== undefined) {
    const spec = vocabulary.answers.get(key);
    return spec && typeOfSpec(spec, `answers.${key}`);
  }
  if (kind === 'validator' && isId(node, 'value')) return vocabulary.value && typeOfSpec(vocabulary.value, 'value');
  // `context.path.locked`, `context.path.tentative`: a path id, or null before one is chosen.
  if (node.op === '.' && (node.args[1] === 'locked' || node.args[1] === 'tentative') && fieldOf(node.args[0], 'context') === 'path' && vocabulary.paths)
    return { name: `context.path.${node.args[1]}`, base: 'string', only: { values: vocabulary.paths, what: 'paths' }, nullable: true };
  return undefined;
}

function typeOfSpec(spec: GuardAnswerType, name: string): ValueType | undefined {
  switch (spec.type) {
    case 'category':
      return { name, base: 'string', only: { values: spec.categories, what: 'categories' } };
    case 'enum':
      return { name, base: 'string', only: { values: spec.options.map((o) => (typeof o === 'string' ? o : o.value)), what: 'options' } };
    case 'number':
    case 'integer':
      return { name, base: 'number' };
    case 'boolean':
      return { name, base: 'boolean', labels: booleanLabels(spec) };
    case 'date':
      return { name, base: 'date' };
    case 'string':
    case 'email':
    case 'phone':
      return { name, base: 'string' };
    case 'json':
      return undefined; // A flow refuses json inputs (checked at the input).
  }
}

function describeType(type: ValueType): string {
  if (type.only) return type.only.what === 'paths' ? 'a path id' : type.only.what === 'options' ? 'one of its options' : 'a category';
  return { string: 'text', number: 'a number', boolean: 'a yes/no', date: 'a date' }[type.base];
}

/** Two reads can be equal: both numbers, both yes/no, or both text (categories, dates and text are all strings). */
function comparable(a: ValueType, b: ValueType): boolean {
  const family = (t: ValueType) => (t.base === 'date' ? 'string' : t.base);
  if (family(a) !== family(b)) return false;
  // Two category answers can be equal only if they share a category.
  if (a.only && b.only) return a.only.values.some((v) => b.only!.values.includes(v));
  return true;
}

type Literal = string | number | bigint | boolean | null;

/** A literal (a negated number included), or undefined for anything else. */
function literalOf(node: ASTNode): { value: Literal } | undefined {
  if (node.op === 'value') {
    const value = node.args;
    if (value === null || typeof value === 'string' || typeof value === 'number' || typeof value === 'bigint' || typeof value === 'boolean') return { value };
    // Unsigned ints and bytes: numbers and bytes, never text or yes/no.
    return { value: value instanceof Uint8Array ? new TextDecoder().decode(value) : Number(String(value)) };
  }
  if (node.op === '-_') {
    const inner = literalOf(node.args);
    if (inner && (typeof inner.value === 'number' || typeof inner.value === 'bigint')) return { value: -inner.value };
  }
  return undefined;
}

function describeLiteral(value: Literal): string {
  if (typeof value === 'string') return `the text '${value}'`;
  if (typeof value === 'boolean') return value ? 'true' : 'false';
  if (value === null) return 'null';
  return `the number ${String(value)}`;
}

/** A number as CEL text: doubles keep a decimal point (`50.0`), as answers are doubles. */
function numberText(n: number): string {
  return Number.isInteger(n) ? `${n}.0` : String(n);
}

/** The nodes directly under a node, in the order written. */
function children(node: ASTNode): ASTNode[] {
  const out: ASTNode[] = [];
  const collect = (arg: unknown) => {
    if (Array.isArray(arg)) arg.forEach(collect);
    else if (typeof arg === 'object' && arg !== null && 'op' in arg && 'args' in arg) out.push(arg as ASTNode);
  };
  collect(node.args);
  return out;
}
