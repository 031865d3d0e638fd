/**
 * Vitest global setup of the suites that serve the demo page: built once,
 * before any worker starts, when it is missing or older than its sources.
 * Left to the suites, each browser file that starts first on a clean clone
 * would build it at the same time as the others.
 */
import { ensureDemoBuilt } from '../helpers/browser-server.js';

export default function setup(): void {
  ensureDemoBuilt();
}
