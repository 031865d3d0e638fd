/**
 * Writes machines/layouts.generated.json: the layouts of the example flows
 * (both levels), made by the layout worker `gateflow serve` uses, under the
 * keys it looks them up by (see src/server/bundled-layouts.ts). Run it after
 * changing an example flow or the drawing code: `npm run build:layouts`.
 */
import { writeFileSync } from 'node:fs';
import { BUNDLED_LAYOUTS_FILE, EXAMPLE_FLOWS_DIR, readFlowsDir } from '../src/cli/io.js';
import { flowWorkflow } from '../src/flow/index.js';
import type { BundledLayouts } from '../src/server/bundled-layouts.js';
import { drawingSource } from '../src/server/drawings.js';
import { workerLayouter } from '../src/server/layout-worker.js';

const workflows = readFlowsDir(EXAMPLE_FLOWS_DIR).map((flow) => flowWorkflow(flow));
const layouter = workerLayouter();
const made: BundledLayouts['layouts'] = [];
// A store that keeps nothing but records what the source would keep: each layout under its full key.
const source = drawingSource({
  workflows: () => workflows,
  layout: layouter.layout,
  layoutCode: layouter.code,
  store: {
    get: async () => null,
    put: async (key, body) => (made.push({ ...key, body: JSON.parse(body) }), true),
  },
});
try {
  for (const w of workflows) for (const level of ['machine', 'outline'] as const) await source.layout(w.id, level);
} finally {
  await layouter.close();
}
made.sort((a, b) => a.drawingId.localeCompare(b.drawingId) || a.level.localeCompare(b.level));
// One layout per line: a changed flow changes its own lines.
writeFileSync(BUNDLED_LAYOUTS_FILE, `{"layouts":[\n${made.map((entry) => JSON.stringify(entry)).join(',\n')}\n]}\n`);
console.log(`${BUNDLED_LAYOUTS_FILE}: ${made.length} layouts of ${workflows.length} example flows (${layouter.code})`);
