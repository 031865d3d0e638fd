import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { runValidate } from '../../src/cli/validate.js';
import { lintFlowText } from '../../src/flow/parse.js';
import { FLOWS_DIR } from '../helpers/http.js';

/**
 * `gateflow validate` on a gate config (the seed's format, as
 * machines/flows/patient-intake.json) reports every problem in one run, as it
 * does for flow documents: the shape errors, and what the config's checks find
 * in the rest (refused pieces left out), each with its pointer and line.
 */

const config = (patch: Record<string, unknown> = {}) =>
  JSON.stringify(
    {
      id: 'intake',
      version: 1,
      gate_order: ['visit', 'age', 'missing_gate'],
      gates: {
        visit: { question: '', expected_categories: ['In person', 'Video'] },
        age: { question: 'How old is the patient?', expected_categories: ['Child', 'Adult'], limiting_values: ['Senior'], colour: 'red' },
        contact: { question: 'How should we reach you?', expected_categories: ['Phone', 'Email'], max_attempts: 0 },
      },
      ...patch,
    },
    null,
    2,
  );

const problems = (text: string) => lintFlowText(text, 'intake.json').problems.map((p) => `${p.line}:${p.column} ${p.pointer}: ${p.message}`);

describe('a gate config with several independent problems', () => {
  it('reports its shape errors and what its checks find in the rest, each where it is', () => {
    const { flow } = lintFlowText(config(), 'intake.json');
    expect(flow).toBeNull();
    expect(problems(config())).toEqual([
      '11:7 /gates/visit/question: must not be empty',
      '17:5 /gates/age: unknown field "colour" (it has "question", "label", "expected_categories", "limiting_values", "stop_message", "synonyms", "max_attempts")',
      '34:7 /gates/contact/max_attempts: "max_attempts" must be at least 1',
      // Found only with the refused pieces left out:
      '7:5 /gate_order/2: gate "missing_gate" is not defined in "gates"',
      '24:9 /gates/age/limiting_values/0: limiting value "Senior" is not one of the categories (Child, Adult)',
      '28:5 /gates/contact: gate "contact" is not listed in "gate_order"',
    ]);
  });

  it('says nothing that only follows from a piece left out, and points at gate_order entries as written', () => {
    // "visit" is refused (no question): "visit" is not "not defined"; a refused entry before "missing_gate" keeps its index right.
    const text = config({ gate_order: ['Not An Id!', 'visit', 'age', 'missing_gate', 'contact'] });
    const found = problems(text);
    expect(found.filter((p) => p.includes('"visit"'))).toEqual([]);
    expect(found.some((p) => p.includes('/gate_order/0:'))).toBe(true);
    expect(found).toContain('8:5 /gate_order/3: gate "missing_gate" is not defined in "gates"');
    expect(found.filter((p) => p.includes('not listed'))).toEqual([]);
  });

  it('reports the shape errors alone when the rest cannot be checked', () => {
    expect(problems(config({ gates: ['visit'] }))).toEqual(['9:3 /gates: "gates" must be an object {...} (not a list)']);
  });

  it('the example gate config still passes, and the CLI prints every problem with its line', () => {
    const example = readFileSync(`${FLOWS_DIR}patient-intake.json`, 'utf8');
    expect(lintFlowText(example, 'patient-intake.json').problems.filter((p) => (p.severity ?? 'error') === 'error')).toEqual([]);
    let printed = '';
    const code = runValidate(config(), 'intake.json', false, { write: (t: string) => ((printed += t), true) } as never);
    expect(code).toBe(1);
    expect(printed).toContain('error   intake.json:24:9 /gates/age/limiting_values/0: limiting value "Senior" is not one of the categories (Child, Adult)');
    expect(printed.trim().split('\n').at(-1)).toBe('intake.json: invalid (6 errors, 0 warnings)');
  });
});
