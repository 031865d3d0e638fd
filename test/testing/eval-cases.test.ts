/**
 * parseEvalCases (what `gateflow eval` reads): a case line the schema refuses
 * is named by its file and line, and each wrong field by its name, what it
 * should hold and what it held; a line without a field says which is missing.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { parseFlowText } from '../../src/flow/parse.js';
import { EvalCaseError, parseEvalCases } from '../../src/testing/evaluate-matcher.js';

const file = new URL('../../machines/flows/contact-request.json', import.meta.url);
const flow = parseFlowText(readFileSync(file, 'utf8'), 'contact-request.json');
const gate = flow.nodes.find((n) => n.kind === 'question' && n.answer.type === 'string')!.id;

/** The lines of the refusal of `lines` as cases.jsonl. */
function refusal(...lines: unknown[]): string[] {
  try {
    parseEvalCases(lines.map((l) => (typeof l === 'string' ? l : JSON.stringify(l))).join('\n'), flow, 'cases.jsonl');
  } catch (error) {
    expect(error).toBeInstanceOf(EvalCaseError);
    return (error as Error).message.split('\n');
  }
  throw new Error('the cases were accepted');
}

describe('a case line the schema refuses', () => {
  it('without "text": the file, the line and the missing field', () => {
    expect(refusal({ gate, text: 'fine', expected: 'x' }, { gate, expected: 'x' })).toEqual(['cases.jsonl:2: the field "text" is missing: it is the message typed, as text']);
  });

  it('every missing field, each on its own', () => {
    expect(refusal({})).toEqual([
      'cases.jsonl:1: the field "gate" is missing: it is the question the message is typed at (its key or id), as text',
      'cases.jsonl:1: the field "text" is missing: it is the message typed, as text',
      'cases.jsonl:1: the field "expected" is missing: it is the answer expected: a category or value, "unknown", or a list of them',
    ]);
  });

  it('a field of the wrong type, a value too small, a wrong value in a list or map: named, with what it held', () => {
    expect(refusal({ gate, text: 3, expected: [], class: '', others: { [gate]: true } })).toEqual([
      'cases.jsonl:1: the field "text" must be the message typed, as text, not 3',
      'cases.jsonl:1: the field "expected" must be the answer expected: a category or value, "unknown", or a list of them, not [] (Too small: expected array to have >=1 items)',
      'cases.jsonl:1: the field "class" must be a group for the report, text of 1 to 60 characters, not "" (Too small: expected string to have >=1 characters)',
      `cases.jsonl:1: the field "others.${gate}" must be a category or value (text or a number), not true`,
    ]);
  });

  it('an unknown field, with the field it was likely meant to be; a line that is not an object', () => {
    expect(refusal({ gate, Text: 'hi', expected: 'x' }, [1])).toEqual([
      'cases.jsonl:1: the field "text" is missing: it is the message typed, as text',
      'cases.jsonl:1: unknown field "Text" (did you mean "text"?): a case has the fields "gate", "text", "expected", "flow", "class", "others"',
      'cases.jsonl:2: a case is a JSON object with the fields "gate", "text", "expected", not [1]',
    ]);
  });
});
