import { describe, expect, it } from 'vitest';
import { GuardCompileError, MAX_GUARD_LENGTH, checkGuard, compileGuard, type GuardProblem } from '../../src/flow/guards/cel.js';

const scope = (answers: Record<string, unknown>, context: Record<string, unknown> = {}) => ({ answers, context });

describe('CEL guards', () => {
  it('evaluate boolean expressions over answers and context', () => {
    const led = compileGuard('answers.intent == "buy_led" && has(answers.court) && answers.court == "tennis"');
    expect(led.evaluate(scope({ intent: 'buy_led', court: 'tennis' }))).toBe(true);
    expect(led.evaluate(scope({ intent: 'buy_led' }))).toBe(false);
    expect(led.evaluate(scope({ intent: 'other', court: 'tennis' }))).toBe(false);
    expect(compileGuard('answers.wattage > 200.0').evaluate(scope({ wattage: 300 }))).toBe(true);
    expect(compileGuard('context.tenant == "acme"').evaluate(scope({}, { tenant: 'acme' }))).toBe(true);
    expect(compileGuard('has(answers.email) || has(answers.phone)').evaluate(scope({ phone: '555' }))).toBe(true);
  });

  it('are refused at compile time with the character position: syntax, unknown variables, types', () => {
    const first = (source: string): GuardProblem | undefined => checkGuard(source)[0];
    expect(first('answers.x ==')).toEqual({ code: 'unexpected_token', message: 'Unexpected token: EOF', position: 12 });
    expect(first('answers.a == "x" && user.admin')).toMatchObject({ code: 'unknown_variable', message: 'Unknown variable: user', position: 20 });
    expect(first('1 + "a"')).toMatchObject({ code: 'no_such_overload', position: 0 });
    expect(first('1 + 2')).toMatchObject({ code: 'not_boolean', message: 'a guard must be true or false, this is int' });
    expect(first('x'.repeat(MAX_GUARD_LENGTH + 1))).toMatchObject({ code: 'too_long' });
    expect(checkGuard('answers.intent == "buy_led"')).toEqual([]);
    expect(() => compileGuard('answers.x ==')).toThrow(GuardCompileError);
    expect(() => compileGuard('answers.x ==')).toThrow('guard "answers.x ==" at 12: Unexpected token: EOF');
  });

  it('are false, with the reason, when they fail while running (a missing key read without has())', () => {
    const problems: GuardProblem[] = [];
    expect(compileGuard('answers.wattage > 200.0').evaluate(scope({}), (p) => problems.push(p))).toBe(false);
    expect(problems).toEqual([{ code: 'no_such_key', message: 'No such key: wattage', position: expect.any(Number) }]);
  });

  it('cannot run code: no functions beyond CEL, no side effects', () => {
    expect(checkGuard('process.exit(1)')[0]).toMatchObject({ code: 'unknown_variable' });
    expect(checkGuard('answers.a.constructor("return 1")()')[0]).toBeDefined();
  });
});
