import { PGlite } from '@electric-sql/pglite';
import { readFileSync } from 'node:fs';
const d = 'node_modules/@electric-sql/pglite/dist/';
let t=performance.now();
const pgliteWasmModule = await WebAssembly.compile(readFileSync(d+'pglite.wasm'));
const initdbWasmModule = await WebAssembly.compile(readFileSync(d+'initdb.wasm'));
const fsBundle = new Blob([readFileSync(d+'pglite.data')]);
console.log('compile', (performance.now()-t).toFixed(0));
t=performance.now();
const a = await PGlite.create({pgliteWasmModule, initdbWasmModule, fsBundle});
console.log('fresh mem precompiled', (performance.now()-t).toFixed(0));
const dump = await a.dumpDataDir('none');
for (let i=0;i<3;i++){
t=performance.now();
const b = await PGlite.create({ loadDataDir: dump, pgliteWasmModule, initdbWasmModule, fsBundle });
console.log('load mem precompiled', (performance.now()-t).toFixed(0));
await b.close();
}
t=performance.now();
const c = await PGlite.create({ loadDataDir: dump });
console.log('load mem plain', (performance.now()-t).toFixed(0));
