import { transition, type AnyEventObject, type AnyMachineSnapshot, type AnyStateMachine } from 'xstate';
import { coerceInput } from '../inputs/coerce.js';
import { declaredInputs } from '../inputs/declared.js';
import type { InputAnsweredEvent, InputTimedOutEvent } from '../inputs/events.js';
import type { GateRecord } from '../inputs/gate.js';
import { planGates } from '../runtime/gates.js';
import { notBusy } from '../workflow/settle.js';

/**
 * The invariants every workflow keeps, checked along a path the way the
 * runtime would run it (its own gate planning, `planGates`, decides which
 * gates are open):
 *
 * - never stuck: a session at rest that is not finished has an open gate
 *   someone can answer (the person, or the role it is addressed to: a
 *   manager's approval), or accepts a turn that changes it;
 * - an answer goes to an open gate only (the runtime delivers no other);
 * - "stop" ends an agent's goal: said wherever the agent waits for the person,
 *   it leads to the end (checked when `stop` is given).
 */
export interface InvariantOptions {
  /** Whether a snapshot is at rest, waiting for the outside (default: not tagged busy). */
  isSettled?: (snapshot: AnyMachineSnapshot) => boolean;
  /** The event a person's text turn becomes (default `user.text`), tried with `snapshot.can`. */
  turnEvent?: (text: string) => AnyEventObject;
  /** An agent's "stop": the words, and whether the snapshot they lead to ends the goal. */
  stop?: { text: string; ends: (snapshot: AnyMachineSnapshot) => boolean };
}

/** An invariant broken at a step of a path. */
export interface InvariantViolation {
  rule: 'stuck' | 'answer_without_gate' | 'stop_ignored';
  /** The step (1-based; 0: the start) and what was seen. */
  step: number;
  message: string;
}

const defaultTurn = (text: string): AnyEventObject => ({ type: 'user.text', text });

/** Follows one session along a path: the gates the runtime would have open, and the invariants at each rest. */
export class SessionInvariants {
  private open: GateRecord[] = [];
  private step = 0;
  // The runtime step under way: the waiting states at its start, the states entered and the gates closed since.
  private waitingBefore = new Set<string>();
  private readonly entered = new Set<string>();
  private closing: { gateId: string; status: 'answered' | 'timed_out' }[] = [];
  readonly violations: InvariantViolation[] = [];
  private readonly settled: (snapshot: AnyMachineSnapshot) => boolean;
  private readonly turnEvent: (text: string) => AnyEventObject;

  constructor(
    private readonly machine: AnyStateMachine,
    initial: AnyMachineSnapshot,
    private readonly options: InvariantOptions = {},
  ) {
    this.settled = options.isSettled ?? notBusy;
    this.turnEvent = options.turnEvent ?? defaultTurn;
    this.open = this.plan(new Set(), new Set(), initial, []).open;
    if (initial.status !== 'active' || this.settled(initial)) this.atRest(initial);
  }

  /** The gates open now (what the runtime would list). */
  gates(): readonly GateRecord[] {
    return this.open;
  }

  /**
   * One event of the path and the snapshot it led to. `entered`: the states
   * (by id) entered during it, including those left and entered again. As in
   * the runtime, a step runs from an event at rest to the next rest (an
   * agent's actors settle in between): the gates are planned at each rest.
   */
  stepped(event: AnyEventObject, before: AnyMachineSnapshot, after: AnyMachineSnapshot, entered: ReadonlySet<string>): void {
    this.step++;
    if (this.settled(before) || before.status !== 'active') this.waitingBefore = new Set(declaredInputs(before).map((d) => d.state));
    for (const id of entered) this.entered.add(id);
    if (event.type === 'input.answered') {
      const e = event as InputAnsweredEvent;
      const gate = this.open.find((g) => g.state === e.state && g.name === e.name && !this.closing.some((c) => c.gateId === g.gateId));
      if (!gate) this.violate('answer_without_gate', `answers "${e.name}" of ${e.state}, but the runtime has no such gate open (open: ${this.describeOpen()})`);
      else this.closing.push({ gateId: gate.gateId, status: 'answered' });
    } else if (event.type === 'input.timedOut') {
      const e = event as InputTimedOutEvent;
      const due = this.open.filter((g) => g.state === e.state && e.names.includes(g.name));
      for (const g of due) this.closing.push({ gateId: g.gateId, status: 'timed_out' });
      if (due.length === 0) this.violate('answer_without_gate', `times out ${e.names.join(', ')} of ${e.state}, but no such gate is open`);
    }
    if (after.status === 'active' && !this.settled(after)) return;
    const reentered = new Set([...this.waitingBefore].filter((s) => this.entered.has(s)));
    this.open = this.plan(this.waitingBefore, reentered, after, this.closing).open;
    this.entered.clear();
    this.closing = [];
    this.atRest(after);
  }

  private plan(before: ReadonlySet<string>, reentered: ReadonlySet<string>, after: AnyMachineSnapshot, closing: { gateId: string; status: 'answered' | 'timed_out' }[]) {
    return planGates({
      sessionId: 'invariants',
      workflowId: this.machine.id,
      owner: null,
      before,
      reentered,
      after: declaredInputs(after),
      open: this.open,
      closing,
      now: new Date(0),
    });
  }

  private atRest(snapshot: AnyMachineSnapshot): void {
    if (snapshot.status !== 'active' || !this.settled(snapshot)) return;
    const mine = this.open.filter((g) => g.to === null);
    if (this.open.length === 0 && !snapshot.can(this.turnEvent('hello')))
      this.violate('stuck', `at rest in ${JSON.stringify(snapshot.value)}, not finished, with no gate open and no turn it takes`);
    if (this.options.stop && mine.length > 0) this.checkStop(snapshot, mine);
  }

  /** "stop" as the runtime takes a text turn: the answer of the one gate addressed to the person, or a turn. */
  private checkStop(snapshot: AnyMachineSnapshot, mine: GateRecord[]): void {
    const { text, ends } = this.options.stop!;
    let event: AnyEventObject = this.turnEvent(text);
    if (mine.length === 1) {
      const gate = mine[0]!;
      const read = coerceInput(gate.spec, text);
      if (read.ok) event = { type: 'input.answered', gateId: gate.gateId, state: gate.state, name: gate.name, value: read.value, by: null, remaining: [], typed: true } satisfies InputAnsweredEvent;
      else if (!gate.spec.passOtherText) return this.violate('stop_ignored', `"${text}" is refused by the gate "${gate.name}" (${read.message})`);
    }
    const [next] = transition(this.machine, snapshot, event);
    if (!ends(next as AnyMachineSnapshot)) this.violate('stop_ignored', `"${text}" in ${JSON.stringify(snapshot.value)} leads to ${JSON.stringify(next.value)}, which does not end the goal`);
  }

  private describeOpen(): string {
    return this.open.length === 0 ? 'none' : this.open.map((g) => `${g.name} of ${g.state}`).join(', ');
  }

  private violate(rule: InvariantViolation['rule'], message: string): void {
    this.violations.push({ rule, step: this.step, message });
  }
}

/** The violations as one error message per path, for a replay that throws. */
export function violationsText(path: string, violations: readonly InvariantViolation[]): string {
  return `path "${path}" breaks an invariant: ${violations.map((v) => `step ${v.step}: ${v.rule}: ${v.message}`).join('; ')}`;
}
