import type { z } from 'zod';
import type { FlowIssue } from './check.js';
import { GateConfigSchema, GateSchema, type GateConfig } from './gate-config.js';

/**
 * A gate config with shape errors, made checkable (as `salvageFlow` does for
 * flow documents): a refused optional field is left out, a gate whose
 * question or categories are refused is left out whole, a refused
 * `gate_order` entry is left out, and a refused `id` or `version` gets a
 * stand-in; so that `gateflow validate` reports the config's other problems
 * (gates not listed, limiting values that are not categories, ...) in the
 * same run. The caller maps the checker's issues back (`restore`): indexes
 * into `gate_order` to those written, and issues that only follow from a
 * piece left out (a gate left out is "not defined") dropped, as the shape
 * error already says it.
 */
export interface SalvagedGateConfig {
  config: GateConfig;
  /** A checker issue on `config` as an issue on the config as written; null when it follows from a piece left out. */
  restore(issue: FlowIssue): FlowIssue | null;
}

type Json = Record<string, unknown>;
const isObject = (v: unknown): v is Json => typeof v === 'object' && v !== null && !Array.isArray(v);

/** Fields of a gate that may be left out (the others make the gate). */
const OPTIONAL_GATE_FIELDS = new Set(Object.entries(GateSchema.shape).flatMap(([key, field]) => (field.safeParse(undefined).success ? [key] : [])));

/** Top-level fields that must be there: written in when refused so that the rest can be checked. */
const STAND_INS: Record<string, unknown> = { id: 'intake', version: 1 };

/** Rounds of leaving out: what is left out cannot make anything else refused, so two suffice; a bound all the same. */
const MAX_ROUNDS = 4;

export function salvageGateConfig(value: unknown, issues: readonly z.core.$ZodIssue[]): SalvagedGateConfig | null {
  if (!isObject(value)) return null;
  const config: Json = structuredClone(value);
  // The index each kept `gate_order` entry had as written.
  const order = Array.isArray(config.gate_order) ? config.gate_order.map((_, i) => i) : null;
  // Gate keys left out (or named by a refused `gate_order` entry): issues naming them follow from it.
  const removed = new Set<string>();

  let pending = issues;
  for (let round = 0; round < MAX_ROUNDS && pending.length > 0; round++) {
    const dropOrder = new Set<number>();
    for (const issue of pending) {
      const [top, second, third] = issue.path.map((p) => (typeof p === 'symbol' ? String(p) : p));
      if (top === undefined) {
        // Unknown top-level keys are left out; anything else about the whole config cannot be worked around.
        if (issue.code !== 'unrecognized_keys') return null;
        for (const key of issue.keys) delete config[key];
      } else if (top === 'gates' && typeof second === 'string') {
        const gates = config.gates;
        const gate = isObject(gates) ? gates[second] : undefined;
        if (!isObject(gates) || !isObject(gate)) {
          if (isObject(gates)) delete gates[second];
          removed.add(second);
        } else if (third === undefined && issue.code === 'unrecognized_keys') {
          for (const key of issue.keys) delete gate[key];
        } else if (typeof third === 'string' && OPTIONAL_GATE_FIELDS.has(third)) {
          delete gate[third];
        } else {
          delete gates[second];
          removed.add(second);
        }
      } else if (top === 'gates') {
        return null; // not a record of gates: nothing to check
      } else if (top === 'gate_order' && typeof second === 'number' && order) {
        const entry = (config.gate_order as unknown[])[second];
        if (typeof entry === 'string') removed.add(entry);
        dropOrder.add(second);
      } else if (top === 'gate_order') {
        return null; // not a list, or an empty one: the checks start from it
      } else if (typeof top === 'string' && top in STAND_INS) {
        config[top] = STAND_INS[top];
      } else if (typeof top === 'string') {
        delete config[top];
      }
    }
    if (dropOrder.size > 0 && order) {
      const list = config.gate_order as unknown[];
      for (const i of [...dropOrder].sort((a, b) => b - a)) {
        list.splice(i, 1);
        order.splice(i, 1);
      }
      // Every entry refused: nothing left to check the gates against.
      if (list.length === 0) return null;
    }
    const parsed = GateConfigSchema.safeParse(config);
    if (parsed.success) return { config: parsed.data, restore: (issue) => restore(issue, order ?? [], removed) };
    pending = parsed.error.issues;
  }
  return null;
}

function restore(issue: FlowIssue, order: readonly number[], removed: ReadonlySet<string>): FlowIssue | null {
  const [top, second] = issue.path;
  if (top === 'gates' && typeof second === 'string' && removed.has(second)) return null;
  for (const key of removed) if (issue.message.includes(`"${key}"`)) return null;
  if (top === 'gate_order' && typeof second === 'number') return { ...issue, path: ['gate_order', order[second] ?? second, ...issue.path.slice(2)] };
  return issue;
}
