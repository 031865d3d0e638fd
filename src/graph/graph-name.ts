/**
 * One AGE graph per owner. An owner is a token's subject: any text, so it is
 * never put in SQL as it is. Its graph is named by a hash: a lowercase
 * identifier AGE accepts (three characters or more, at most 63), the same for
 * the same owner in every process, different for different owners. Without
 * auth (owner null) every session shares one graph.
 */
export const SHARED_GRAPH = 'gateflow_graph';

const GRAPH_NAME = /^(?:gateflow_graph|gf_[0-9a-f]{40})$/;

export async function graphNameFor(owner: string | null): Promise<string> {
  if (owner === null) return SHARED_GRAPH;
  const digest = await crypto.subtle.digest('SHA-256', new TextEncoder().encode(`gateflow graph owner\u0000${owner}`));
  const hex = Array.from(new Uint8Array(digest), (b) => b.toString(16).padStart(2, '0')).join('');
  return `gf_${hex.slice(0, 40)}`;
}

/** Whether a name is one {@link graphNameFor} makes: the only graph names ever put in SQL text. */
export const isGraphName = (name: string): boolean => GRAPH_NAME.test(name);
