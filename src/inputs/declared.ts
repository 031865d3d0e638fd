import type { AnyMachineSnapshot, AnyStateMachine, AnyStateNode } from 'xstate';
import { z } from 'zod';
import { GateflowError } from '../error/gateflow-error.js';
import { coerceInput } from './coerce.js';
import { InputSpecSchema, type InputSpec } from './spec.js';

/**
 * Where a machine says what it waits for: a state's `meta.inputs`, a list of
 * input specs. Any machine can wait this way:
 *
 * ```ts
 * approval: {
 *   meta: waitsFor([{ name: 'approved', type: 'boolean', to: 'manager', deadline: 'PT24H' }]),
 *   on: {
 *     'input.answered': [
 *       { guard: 'lastInputAnswered', target: 'decide', actions: 'keepInput' },
 *       { actions: 'keepInput' },
 *     ],
 *     'input.timedOut': { target: 'escalate' },
 *   },
 * }
 * ```
 */

/** The inputs one active state waits for. */
export interface DeclaredInputs {
  /** The state node's id (`machine.approval`). */
  state: string;
  inputs: InputSpec[];
}

const InputListSchema = z.array(InputSpecSchema).min(1, 'a waiting state declares at least one input');

/** A state's `meta.inputs` that are not valid input specs (a machine's mistake, found when the state is entered). */
export class InvalidInputSpecError extends GateflowError {
  override readonly name = 'InvalidInputSpecError';
  readonly code = 'invalid_input_spec';
  readonly status = 500;
}

/** Inputs that depend on what the machine knows (an agent's question, the values it offers): read from the context when the state is entered. */
export type InputsOf = (context: unknown) => readonly InputSpec[];

/** What a waiting state declares in `meta.inputs`. */
export type WaitsFor = { inputs: InputSpec[] } | { inputs: InputsOf };

type Defaults = { to?: string; deadline?: string };
const withDefaults = (inputs: readonly InputSpec[], options: Defaults) =>
  inputs.map((i) => ({ ...(options.to && { to: options.to }), ...(options.deadline && { deadline: options.deadline }), ...i }));

/**
 * The state meta that declares `inputs`: a list (checked here, so a mistake
 * shows where the machine is written), or a function of the context (checked
 * whenever it is read; an empty list means the state waits for nothing).
 */
export function waitsFor(inputs: readonly InputSpec[], options?: Defaults): { inputs: InputSpec[] };
export function waitsFor(inputs: InputsOf, options?: Defaults): { inputs: InputsOf };
export function waitsFor(inputs: readonly InputSpec[] | InputsOf, options: Defaults = {}): WaitsFor {
  if (typeof inputs === 'function') return { inputs: (context: unknown) => withDefaults(inputs(context), options) };
  return { inputs: parseInputs('waitsFor()', withDefaults(inputs, options)) };
}

// Meta objects belong to the machine's state nodes: each is read once.
const parsed = new WeakMap<object, InputSpec[]>();

function parseInputs(where: string, value: unknown): InputSpec[] {
  const result = InputListSchema.safeParse(value);
  if (!result.success)
    throw new InvalidInputSpecError(
      `${where}: invalid inputs: ${result.error.issues.map((i) => `${i.path.length ? `inputs.${i.path.join('.')}` : 'inputs'}: ${i.message}`).join('; ')}`,
    );
  const names = new Set<string>();
  for (const input of result.data) {
    if (names.has(input.name)) throw new InvalidInputSpecError(`${where}: two inputs are named "${input.name}"`);
    names.add(input.name);
    // A default is what the gate takes at its deadline: it must be a value the input allows.
    if (input.default !== undefined) {
      const read = coerceInput(input, input.default);
      if (!read.ok) throw new InvalidInputSpecError(`${where}: the default of "${input.name}" is not allowed: ${read.message}`);
    }
  }
  return result.data;
}

/** Per machine: whether any of its states declares inputs (a machine's states do not change). */
const declaring = new WeakMap<AnyStateMachine, boolean>();

/**
 * Whether any state of the machine declares inputs (`meta.inputs`): one that
 * none does never waits for one, and the runtime need not watch its states
 * being entered.
 */
export function declaresInputs(machine: AnyStateMachine): boolean {
  let found = declaring.get(machine);
  if (found === undefined) {
    const walk = (node: AnyStateNode): boolean =>
      (typeof node.meta === 'object' && node.meta !== null && 'inputs' in node.meta) || Object.values(node.states).some(walk);
    declaring.set(machine, (found = walk(machine.root)));
  }
  return found;
}

/** The inputs the active states of a snapshot wait for, by state (none when it is not active). */
export function declaredInputs(snapshot: AnyMachineSnapshot): DeclaredInputs[] {
  // A machine none of whose states declares inputs waits for none (known once per machine; getMeta builds an object per call).
  if (snapshot.status !== 'active' || !declaresInputs(snapshot.machine)) return [];
  const found: DeclaredInputs[] = [];
  for (const [state, meta] of Object.entries(snapshot.getMeta() as Record<string, unknown>)) {
    if (typeof meta !== 'object' || meta === null || !('inputs' in meta)) continue;
    const declared = (meta as { inputs: unknown }).inputs;
    if (typeof declared === 'function') {
      const now = (declared as InputsOf)(snapshot.context);
      if (now.length > 0) found.push({ state, inputs: parseInputs(`state "${state}"`, now) });
      continue;
    }
    let inputs = parsed.get(meta);
    if (!inputs) parsed.set(meta, (inputs = parseInputs(`state "${state}"`, (meta as { inputs: unknown }).inputs)));
    found.push({ state, inputs });
  }
  return found;
}
