import { readFileSync } from 'node:fs';
import { parseFlowText, startConversation } from './src/index.js';
const flow = parseFlowText(readFileSync('machines/flows/patient-intake.json','utf8'));
const c = startConversation(flow);
await c.send({ button: 'Yes' });
for (let i = 0; i < 20000; i++) await c.send({ text: 'hmm' });
