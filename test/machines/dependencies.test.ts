/**
 * The dependency between machines/ and src/ runs one way: the library (src/)
 * builds on the hand-written statecharts (machines/); a statechart imports
 * only xstate, zod and its sibling machines, and at most types from src/
 * (erased at build, so no module of src/ is loaded by a machine).
 */
import { readdirSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const MACHINES = fileURLToPath(new URL('../../machines/', import.meta.url));
const files = readdirSync(MACHINES).filter((f) => f.endsWith('.ts'));

/** Every `import … from '…'` of a file, with whether it imports types only. */
function importsOf(text: string): { from: string; typeOnly: boolean }[] {
  return [...text.matchAll(/^import\s+(type\s+)?[\s\S]*?\bfrom\s+'([^']+)';/gm)].map((m) => ({ from: m[2]!, typeOnly: Boolean(m[1]) }));
}

describe('machines/ depends on nothing of src/ at run time', () => {
  it('finds the statecharts', () => {
    expect(files).toEqual(expect.arrayContaining(['chat-session.ts', 'path-selection.ts', 'path-policy.ts']));
  });

  it.each(files)('%s imports values only from packages and machines/', (file) => {
    const values = importsOf(readFileSync(`${MACHINES}${file}`, 'utf8')).filter((i) => !i.typeOnly);
    expect(values.filter((i) => i.from.includes('/src/')).map((i) => i.from)).toEqual([]);
    for (const i of values) expect(i.from, file).toMatch(/^(xstate|zod)$|^\.\/[\w-]+\.js$/);
  });

  it('would catch a value import from src/', () => {
    expect(importsOf("import { x } from '../src/paths/index.js';\nimport type { Y } from '../src/y.js';")).toEqual([
      { from: '../src/paths/index.js', typeOnly: false },
      { from: '../src/y.js', typeOnly: true },
    ]);
  });
});
