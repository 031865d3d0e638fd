/**
 * `runtime.turn` takes a typed turn (issue 28 §2): a mistake is found by the
 * compiler (`tsc -p .` checks this file), and still refused at run time for a
 * caller without types.
 */
import { describe, expectTypeOf, it } from 'vitest';
import type { Runtime } from '../../src/runtime/runtime.js';
import type { Turn } from '../../src/workflow/turn.js';

describe('runtime.turn', () => {
  it('takes a Turn, not anything', () => {
    expectTypeOf<Runtime['turn']>().parameter(1).toEqualTypeOf<Turn>();
    expectTypeOf<{ text: 'hello' }>().toExtend<Parameters<Runtime['turn']>[1]>();
    expectTypeOf<{ button: 'confirm'; turnId: 't1' }>().toExtend<Parameters<Runtime['turn']>[1]>();
    expectTypeOf<{ nope: 1 }>().not.toExtend<Parameters<Runtime['turn']>[1]>();
  });
});
