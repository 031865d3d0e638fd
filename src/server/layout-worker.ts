import { createRequire } from 'node:module';
import { Worker } from 'node:worker_threads';
import type { ElkNode } from 'elkjs/lib/elk-api.js';
import { MissingDependencyError } from '../error/optional-dependency.js';
import type { WorkflowDrawing } from '../viz/drawing.js';
import { LAYOUT_REVISION, layoutDrawing, type DrawingLayout, type ElkLayouter } from '../viz/layout.js';
import type { DrawingLevel } from '../viz/overlay.js';

/**
 * ELK run in a worker thread (Node): a layout takes from a tenth of a second
 * to seconds of CPU, which on the server's own thread would hold every other
 * request that long. The worker runs elkjs's own worker build
 * (`elk-worker.min.js`, the code elkjs runs in a Web Worker in a browser) and
 * answers layouts in the order asked.
 */
export interface WorkerLayouter {
  /** `layoutDrawing`, with ELK in the worker. */
  layout(drawing: WorkflowDrawing, level: DrawingLevel): Promise<DrawingLayout>;
  /**
   * What decides its layouts besides the drawing: the layout code's revision,
   * gateflow's version and ELK's (a layout kept in a store under another code
   * is not served).
   */
  readonly code: string;
  /** Stops the worker (a later layout starts another). */
  close(): Promise<void>;
}

/** The version in a package's package.json, or `?` when it cannot be read. */
function versionOf(name: string): string {
  try {
    return String((createRequire(import.meta.url)(`${name}/package.json`) as { version?: unknown }).version ?? '?');
  } catch {
    return '?';
  }
}

/** Longer than any drawing a person can read takes to lay out: a layout still running then is stopped. */
const LAYOUT_LIMIT_MS = 5 * 60_000;

// CommonJS run by the worker: elkjs's worker build exports its in-process
// stand-in for a Web Worker (`Worker`), which dispatches ELK's commands.
const WORKER_SOURCE = `
const { parentPort, workerData } = require('node:worker_threads');
const { Worker: Elk } = require(workerData);
const elk = new Elk();
elk.onmessage = (event) => {
  const { id, data, error } = event.data;
  // ELK's errors are Java exceptions compiled to JS: only their text crosses.
  if (error !== undefined) parentPort.postMessage({ id, error: String((error && error.message) || error) });
  else parentPort.postMessage({ id, data });
};
parentPort.on('message', (message) => elk.postMessage(message));
elk.postMessage({ id: 0, cmd: 'register', algorithms: ['layered'] });
`;

interface Answer {
  id: number;
  data?: ElkNode;
  error?: string;
}

export function workerLayouter(): WorkerLayouter {
  let worker: Worker | null = null;
  let next = 1;
  const pending = new Map<number, { resolve: (graph: ElkNode) => void; reject: (error: Error) => void }>();

  const fail = (error: Error) => {
    for (const { reject } of pending.values()) reject(error);
    pending.clear();
    worker = null;
  };
  const start = (): Worker => {
    let script: string;
    try {
      script = createRequire(import.meta.url).resolve('elkjs/lib/elk-worker.min.js');
    } catch (cause) {
      throw new MissingDependencyError('elkjs', 'laying out drawings (SVG, the viewer)', { cause });
    }
    const made = new Worker(WORKER_SOURCE, { eval: true, workerData: script });
    // An idle worker does not keep the process alive.
    made.unref();
    made.on('message', (answer: Answer) => {
      const waiting = pending.get(answer.id);
      if (!waiting) return; // the answer to `register`
      pending.delete(answer.id);
      if (answer.error !== undefined) waiting.reject(new Error(`ELK could not lay the drawing out: ${answer.error}`));
      else waiting.resolve(answer.data as ElkNode);
    });
    made.on('error', (error) => worker === made && fail(error));
    made.on('exit', (code) => worker === made && fail(new Error(`the layout worker stopped (exit code ${code})`)));
    return made;
  };

  const elk: ElkLayouter = {
    layout(graph) {
      worker ??= start();
      const id = next++;
      const running = worker;
      return new Promise<ElkNode>((resolve, reject) => {
        const timer = setTimeout(() => {
          // A layout that never ends holds the worker: stop it, and the next layout starts another.
          if (pending.has(id)) void running.terminate();
        }, LAYOUT_LIMIT_MS);
        timer.unref();
        const settle = () => clearTimeout(timer);
        pending.set(id, {
          resolve: (laid) => (settle(), resolve(laid)),
          reject: (error) => (settle(), reject(error)),
        });
        running.postMessage({ id, cmd: 'layout', graph, layoutOptions: {}, options: {} });
      });
    },
  };

  return {
    code: `gateflow-layout/${LAYOUT_REVISION} gateflow@${versionOf('gateflow')} elkjs@${versionOf('elkjs')}`,
    layout: (drawing, level) => layoutDrawing(drawing, level, { elk }),
    async close() {
      const running = worker;
      worker = null;
      fail(new Error('the layout worker was closed'));
      await running?.terminate();
    },
  };
}
