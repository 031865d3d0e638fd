import type { LanguageModel } from 'ai';
import type { AnyActorLogic } from 'xstate';
import { DirectoryLockedError } from '../store/dir-lock.js';
import { StoreUnavailableError, type Store } from '../store/types.js';
import type { Workflow } from '../workflow/types.js';
import { CliError } from './io.js';

/**
 * `gateflow chat task-agent`: the task agent in the terminal, on the store
 * `gateflow serve` uses (PGlite in GATEFLOW_DB_DIR, .gateflow/db by default,
 * with Apache AGE), so that the graph it changes is the one `gateflow graph`
 * and the demo page show. A directory a server holds is refused with advice.
 */
export async function openTaskAgentChat(
  env: Record<string, string | undefined>,
  model: LanguageModel | undefined,
): Promise<{ workflow: Workflow; actors: Record<string, AnyActorLogic>; store: Store }> {
  const { createPgliteStore, DEFAULT_PGLITE_DIR } = await import('../store/pglite.js');
  const { graphPgliteOptions } = await import('../graph/pglite.js');
  const { ensureGraphSupport } = await import('../graph/availability.js');
  const { taskAgentHost } = await import('../task-agent/host.js');
  const dataDir = env.GATEFLOW_DB_DIR?.trim() || DEFAULT_PGLITE_DIR;
  let store: Store;
  try {
    store = await createPgliteStore({ dataDir, extensions: graphPgliteOptions().extensions });
  } catch (error) {
    if (error instanceof DirectoryLockedError)
      throw new CliError(`gateflow: ${error.message}.\ngateflow: the task agent's graph is held by that process: use its demo page or HTTP API, or set GATEFLOW_DB_DIR to another directory`, 1);
    if (error instanceof StoreUnavailableError) throw new CliError(`gateflow: ${error.message}`, 1);
    throw error;
  }
  try {
    await ensureGraphSupport(store.sql!);
  } catch (error) {
    await store.close();
    throw new CliError(`gateflow: the task agent needs Apache AGE: ${(error as Error).message}`, 1);
  }
  const { workflow, actors } = taskAgentHost({ database: store.sql!, model });
  return { workflow, actors, store };
}
