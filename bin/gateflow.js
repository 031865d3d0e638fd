#!/usr/bin/env node
// Installed entry point: runs the compiled CLI (built by `npm run build`, run on pack).
import { main } from '../dist/src/cli/main.js';

process.exitCode = await main(process.argv.slice(2));
