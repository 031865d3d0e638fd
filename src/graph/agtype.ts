/**
 * AGE returns `agtype` as text: JSON, except that vertices, edges and paths
 * carry a `::vertex` / `::edge` / `::path` suffix, floats may be `NaN` or
 * `Infinity`, and integers are 64-bit (a vertex id passes 2^53 once a graph
 * has 32 labels). This reads such text into JSON values without losing any:
 * suffixes go, integers beyond JavaScript's safe range and non-finite floats
 * become strings.
 */
export type AgValue = string | number | boolean | null | AgValue[] | { [key: string]: AgValue };

export function parseAgtype(text: string | null): AgValue {
  if (text === null) return null;
  let out = '';
  let i = 0;
  while (i < text.length) {
    const c = text[i]!;
    if (c === '"') {
      // A JSON string: copied as it is, escapes included.
      let j = i + 1;
      while (j < text.length && text[j] !== '"') j += text[j] === '\\' ? 2 : 1;
      out += text.slice(i, j + 1);
      i = j + 1;
    } else if (c === ':' && text[i + 1] === ':') {
      // A type annotation (::vertex, ::edge, ::path, ::numeric): dropped.
      i += 2;
      while (i < text.length && /[A-Za-z_]/.test(text[i]!)) i++;
    } else if (/[-0-9NI]/.test(c)) {
      const m = /^-?(?:NaN|Infinity|\d+(?:\.\d+)?(?:[eE][-+]?\d+)?)/.exec(text.slice(i));
      if (!m) {
        out += c;
        i++;
        continue;
      }
      const token = m[0];
      const isInteger = /^-?\d+$/.test(token);
      const unsafe = (isInteger && !Number.isSafeInteger(Number(token))) || /NaN|Infinity/.test(token);
      out += unsafe ? JSON.stringify(token) : token;
      i += token.length;
    } else {
      out += c;
      i++;
    }
  }
  return JSON.parse(out) as AgValue;
}

/** The parameter map a `cypher(graph, $$ … $$, $1)` call reads its `$name` values from, as agtype text (JSON). */
export const agParams = (params: Record<string, unknown>): string => JSON.stringify(params);
