import { z } from 'zod';
import type { InputValue } from './coerce.js';
import { InputSpecSchema, inputOptions, type InputSpec } from './spec.js';

/** Where a gate is: `open` until it is answered, times out, is cancelled with its session, or closed because the machine left the state. */
export const GateStatusSchema = z.enum(['open', 'answered', 'timed_out', 'cancelled', 'closed']);
export type GateStatus = z.infer<typeof GateStatusSchema>;

/** A gate as the store keeps it. */
export interface GateRecord {
  gateId: string;
  sessionId: string;
  workflowId: string;
  /** The session's owner (a JWT subject), null without auth. */
  owner: string | null;
  /** The state node that declared the input. */
  state: string;
  name: string;
  spec: InputSpec;
  /** The role that answers, null: the person in the conversation. */
  to: string | null;
  status: GateStatus;
  deadline: Date | null;
  openedAt: Date;
  closedAt: Date | null;
  value: InputValue | null;
  answeredBy: string | null;
}

/** How a gate closes in a commit. */
export interface GateClosing {
  gateId: string;
  status: Exclude<GateStatus, 'open'>;
  value?: InputValue;
  answeredBy?: string | null;
}

/** An open gate as the API lists it and a reply carries it. */
export const OpenInputSchema = z.object({
  gateId: z.string().describe('The gate: answer it with POST /api/inputs/{gateId}'),
  sessionId: z.string(),
  workflowId: z.string(),
  name: z.string().describe('The input the gate asks for'),
  type: z.enum(['boolean', 'number', 'integer', 'string', 'enum', 'date', 'email', 'json']),
  description: z.string().nullable(),
  options: z
    .array(z.object({ label: z.string(), value: z.union([z.string(), z.boolean()]) }))
    .nullable()
    .describe("An enum's options, a boolean's two words; null otherwise"),
  to: z.string().nullable().describe('The role that answers; null: the person in the conversation'),
  deadline: z.string().nullable().describe('ISO time after which the gate no longer takes answers'),
  openedAt: z.string().describe('ISO time the gate opened'),
  spec: InputSpecSchema.describe('The whole input spec: bounds, default, JSON Schema'),
});
export type OpenInput = z.infer<typeof OpenInputSchema>;

export function openInputOf(gate: GateRecord): OpenInput {
  return {
    gateId: gate.gateId,
    sessionId: gate.sessionId,
    workflowId: gate.workflowId,
    name: gate.name,
    type: gate.spec.type,
    description: gate.spec.description ?? null,
    options: inputOptions(gate.spec),
    to: gate.to,
    deadline: gate.deadline?.toISOString() ?? null,
    openedAt: gate.openedAt.toISOString(),
    spec: gate.spec,
  };
}

/** A random, unguessable gate id: "in_" and 16 base32 characters (80 bits), safe in URLs and shells. */
export function newGateId(): string {
  const alphabet = 'abcdefghijklmnopqrstuvwxyz234567';
  const bytes = globalThis.crypto.getRandomValues(new Uint8Array(16));
  let id = 'in_';
  for (const b of bytes) id += alphabet[b & 31];
  return id;
}

/** Whether a string could be a gate id at all. */
export const isGateId = (value: string): boolean => /^in_[a-z2-7]{16}$/.test(value);
