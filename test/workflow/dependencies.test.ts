/**
 * Dependencies point one way: the runtime, the stores, the server, the
 * transports and the workflow contract know workflows, not flow documents.
 * Only src/flow (and the CLI and src/flow-files, the application side that wires flows in) imports it.
 * The React local transport runs workflows in the page too: its caller makes them of flow documents
 * (`createLocalTransport({ workflows: [flowWorkflow(doc)] })`).
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const SRC = fileURLToPath(new URL('../../src/', import.meta.url));
const filesUnder = (dir: string): string[] =>
  readdirSync(dir).flatMap((f) => (statSync(join(dir, f)).isDirectory() ? filesUnder(join(dir, f)) : /\.tsx?$/.test(f) ? [join(dir, f)] : []));
const importsOf = (file: string) => [...readFileSync(file, 'utf8').matchAll(/\bfrom\s+'([^']+)'/g)].map((m) => m[1]!);

describe('nothing outside src/flow knows flow documents', () => {
  it.each(['workflow', 'runtime', 'store', 'server', 'react', 'error', 'inputs'])('src/%s imports nothing of src/flow', (folder) => {
    const files = filesUnder(join(SRC, folder));
    expect(files.length).toBeGreaterThan(0);
    const offending = files.flatMap((f) => importsOf(f).filter((i) => /(^|\/)flow\//.test(i) && !i.includes('workflow/')).map((i) => `${f.slice(SRC.length)} → ${i}`));
    expect(offending).toEqual([]);
  });
});
