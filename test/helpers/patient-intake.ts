/** The example flow, loaded once, with its gate keys and lookups, for the extraction suites. */
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { categoriesOf, flowGraph } from '../../src/flow/graph.js';
import { parseFlowText } from '../../src/flow/parse.js';
import type { QuestionNode } from '../../src/flow/schema.js';

export const FLOW_PATH = fileURLToPath(new URL('../../machines/flows/patient-intake.json', import.meta.url));
export const flow = parseFlowText(readFileSync(FLOW_PATH, 'utf8'), FLOW_PATH);
export const graph = flowGraph(flow);
/**
 * The example flow with a budget of 100 failed attempts per question: for
 * tests that send many unreadable turns to one session (concurrency, replays)
 * and need it to keep asking rather than end at its fallback.
 */
export const patientFlow = { ...flow, maxAttempts: 100 };

export const G1 = '1_patient_info_availability';
export const G2 = '2_insurance_history';
export const G3 = '3_visit_type';
export const G4 = '4_patient_age_group';
export const G5 = '5_preferred_contact';

export function question(id: string): QuestionNode {
  const q = graph.question(id);
  if (!q) throw new Error(`no question ${id} in the example flow`);
  return q;
}

export const buttonsOf = (id: string) => categoriesOf(question(id)).map((c) => ({ label: c, value: c }));
