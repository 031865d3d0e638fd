/**
 * The operator's line when the model fails (src/cli/model-failure-log.ts): the provider's error as it came, at
 * once; while the model stays down, one line per interval with how many more failed, not one per message.
 */
import { describe, expect, it } from 'vitest';
import { modelFailureLog } from '../../src/cli/model-failure-log.js';

const failure = (detail: string) => ({ reason: 'model_error' as const, message: 'the model service could not be reached', detail });

describe('modelFailureLog', () => {
  it('writes the first failure at once, then counts the rest until the interval has passed', () => {
    const lines: string[] = [];
    let clock = 0;
    const log = modelFailureLog((line) => lines.push(line), { everyMs: 60_000, now: () => clock });
    log(failure('Error: connect ECONNREFUSED 127.0.0.1:9'));
    for (let i = 0; i < 5; i++) {
      clock += 1000;
      log(failure('Error: connect ECONNREFUSED 127.0.0.1:9'));
    }
    expect(lines).toEqual(['gateflow: model call failed (model_error): Error: connect ECONNREFUSED 127.0.0.1:9']);
    clock += 60_000;
    log(failure('AI_APICallError: 503 Service Unavailable'));
    expect(lines[1]).toBe('gateflow: model call failed (model_error): AI_APICallError: 503 Service Unavailable (and 5 more model failures since the last line)');
    clock += 60_000;
    log(failure('again'));
    expect(lines[2]).toBe('gateflow: model call failed (model_error): again');
  });
});
