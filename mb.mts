import { readFileSync, readdirSync } from 'node:fs';
import { parseFlowText } from '/work/main/src/flow/index.js';
import { generateFlowPaths, replayFlowPaths, pathsToReplay } from '/work/main/src/testing/model-based.js';
const dir = '/work/main/machines/flows/';
let total = 0, kept = 0;
const t0 = process.cpuUsage();
for (const f of readdirSync(dir).filter((f) => f.endsWith('.json'))) {
  const flow = parseFlowText(readFileSync(dir + f, 'utf8'), f);
  const g0 = process.cpuUsage();
  const paths = generateFlowPaths(flow);
  const g = process.cpuUsage(g0);
  const r0 = process.cpuUsage();
  const c = await replayFlowPaths(flow, paths);
  const r = process.cpuUsage(r0);
  const k = pathsToReplay(paths).length;
  total += paths.length; kept += k;
  console.log(f, paths.length, 'paths', k, 'run', 'gen', ((g.user+g.system)/1e6).toFixed(2), 'replay', ((r.user+r.system)/1e6).toFixed(2), c.states.percent, c.transitions.percent, c.steps);
}
const t = process.cpuUsage(t0); console.log('total', total, kept, ((t.user+t.system)/1e6).toFixed(1));
