import { readFileSync } from 'node:fs';
import { parseFlowText, createRuntime } from './src/index.js';
import { createMemoryStore } from './src/store/memory.js';
const flow = parseFlowText(readFileSync('machines/flows/patient-intake.json','utf8'));
const r = createRuntime({ flows: [flow], store: createMemoryStore() });
const INTAKE = [{ button: 'Yes' },{ text: 'no, always covered' },{ button: 'Follow-up' },{ text: 'an adult' },{ button: 'Email' },{ button: 'confirm' }];
const per: Record<string, number[]> = {};
for (let i = 0; i < 3000; i++) {
  const { sessionId } = await r.start(flow.id);
  for (const t of INTAKE) { const t0 = performance.now(); await r.turn(sessionId, t); (per[JSON.stringify(t)] ??= []).push(performance.now() - t0); }
}
for (const [k, v] of Object.entries(per)) { v.sort((a,b)=>a-b); console.log(k.padEnd(36), 'p50', (v[v.length>>1]*1000).toFixed(1), 'µs'); }
