import { describe, expect, it } from 'vitest';
import { parseAgtype } from '../../src/graph/agtype.js';
import { checkCypherText, dollarQuoted } from '../../src/graph/cypher-text.js';
import { CypherRefusedError, type CypherRefusal } from '../../src/graph/errors.js';

const refusal = (text: string): { reason: CypherRefusal; at: number | undefined } | undefined => {
  try {
    checkCypherText(text);
    return undefined;
  } catch (error) {
    if (!(error instanceof CypherRefusedError)) throw error;
    return { reason: error.reason, at: error.at };
  }
};

describe('checkCypherText: what a read query returns', () => {
  it('names the columns by AS, or by the expression text', () => {
    expect(checkCypherText("MATCH (t:Ticket {status: 'open'}) RETURN t.key AS key, count(*), t.summary").columns).toEqual([
      'key',
      'count(*)',
      't.summary',
    ]);
  });

  it('counts only top-level commas: lists, maps, calls and CASE are one column each', () => {
    const text = "MATCH (n) RETURN DISTINCT [n.a, n.b], {x: 1, y: 2}, coalesce(n.c, 'z'), CASE WHEN n.a > 1 THEN 1 ELSE 2 END ORDER BY n.a, n.b LIMIT 3";
    expect(checkCypherText(text).columns).toHaveLength(4);
  });

  it('reads the last RETURN of a UNION, and the one after WITH', () => {
    expect(checkCypherText('MATCH (a:A) RETURN a.key AS k UNION MATCH (b:B) RETURN b.key AS k').columns).toEqual(['k']);
    expect(checkCypherText('MATCH (a) WITH a, count(*) AS c RETURN a.key, c').columns).toEqual(['a.key', 'c']);
  });

  it('numbers repeated names apart', () => {
    expect(checkCypherText('MATCH (n) RETURN n.key, n.key').columns).toEqual(['n.key', 'n.key_2']);
  });

  it('lets keywords be names: properties, labels, map keys, strings and comments', () => {
    expect(refusal("MATCH (n:Create {delete: 'CREATE (x)'})-[:SET]->(m) WHERE n.remove = 1 RETURN n.merge // DELETE n")).toBeUndefined();
    expect(refusal('MATCH (n) /* SET n.x = 1 */ RETURN `create`')).toBeUndefined();
  });
});

describe('checkCypherText: what it refuses', () => {
  it.each([
    ['CREATE (n:X) RETURN n', 'write'],
    ['MATCH (n) WITH n create (m:X) RETURN m', 'write'],
    ["MATCH (n) MERGE (m:X {key: 'a'}) RETURN m", 'write'],
    ['MATCH (n) SET n.x = 1 RETURN n', 'write'],
    ['MATCH (n) DETACH DELETE n RETURN 1', 'write'],
    ['MATCH (n) REMOVE n.x RETURN n', 'write'],
    ['MATCH (n) RETURN n UNION MATCH (m) DELETE m RETURN m', 'write'],
    ['MATCH (n) FOREACH (x IN [1] | CREATE (:Y)) RETURN n', 'write'],
    ["LOAD CSV FROM 'file:///etc/passwd' AS line RETURN line", 'write'],
    ['CALL { CREATE (:Y) } RETURN 1', 'write'],
    ['CALL db.labels() YIELD label RETURN label', 'write'],
    ['MATCH (n) WHERE exists((n)-->()) RETURN [x IN [1] | x] /* ok */ , n /* */ SET n.x = 1', 'write'],
    ['MATCH (n) RETURN n; MATCH (m) RETURN m', 'several_statements'],
    ['MATCH (n) RETURN n;', 'several_statements'],
    ['MATCH (n {key: $key}) RETURN n', 'parameter'],
    ["RETURN 1 $$) AS (a agtype); DROP TABLE gateflow_sessions; --", 'parameter'],
    ['RETURN pg_catalog.pg_reload_conf()', 'function'],
    ["RETURN `pg_catalog`.`query_to_xml`('select 1', true, true, '')", 'function'],
    ['RETURN pg_catalog /* gap */ . now ()', 'function'],
    ['RETURN public.age_id(1)', 'function'],
    ["RETURN create_barbell_graph('g', 3, 'V', NULL, 1, 'E', NULL)", 'function'],
    ["RETURN `delete_global_graphs`('g')", 'function'],
    ['MATCH (n) RETURN *', 'return_star'],
    ['MATCH (n) WITH n', 'no_return'],
    ["MATCH (n) WHERE n.a = 'open RETURN n", 'unterminated'],
    ['MATCH (n) /* RETURN n', 'unterminated'],
    ['MATCH (`n) RETURN 1', 'unterminated'],
    ['   ', 'empty'],
    [`RETURN '${'x'.repeat(5000)}'`, 'too_long'],
  ] as const)('%s → %s', (text, reason) => {
    expect(refusal(text)?.reason).toBe(reason);
  });

  it('says where', () => {
    expect(refusal('MATCH (n)\nSET n.x = 1 RETURN n')?.at).toBe(10);
  });
});

describe('dollarQuoted', () => {
  /** What PostgreSQL reads as the string: from the opening tag to the first closing one. */
  const body = (quoted: string) => {
    const tag = /^\$[A-Za-z0-9_]*\$/.exec(quoted)![0];
    const end = quoted.indexOf(tag, tag.length);
    return { body: quoted.slice(tag.length, end), rest: quoted.slice(end + tag.length) };
  };

  it.each([
    "RETURN 'a'",
    "RETURN '$$) AS (a agtype); DROP TABLE x; --'",
    "RETURN '$cypher$) AS (a agtype); DROP TABLE x; --'",
    "RETURN '$cypher$ $cypher1$ $cypher2$'",
    "RETURN '$cypher'",
  ])('cannot be closed from inside: %s', (text) => {
    expect(body(dollarQuoted(text))).toEqual({ body: ` ${text} `, rest: '' });
  });

  it('is the same for the same text', () => {
    expect(dollarQuoted('RETURN 1')).toBe(dollarQuoted('RETURN 1'));
  });
});

describe('parseAgtype', () => {
  it('drops the type suffixes of vertices, edges and paths, not the text in strings', () => {
    expect(parseAgtype('{"id": 1, "label": "T", "properties": {"s": "a::vertex"}}::vertex')).toEqual({ id: 1, label: 'T', properties: { s: 'a::vertex' } });
    expect(parseAgtype('[{"id": 1}::vertex, {"id": 2}::edge]::path')).toEqual([{ id: 1 }, { id: 2 }]);
  });

  it('keeps 64-bit integers and non-finite floats exact, as strings', () => {
    expect(parseAgtype('[9007199254740993, 42, -1.5, 1.2e+19, NaN, -Infinity]')).toEqual(['9007199254740993', 42, -1.5, 1.2e19, 'NaN', '-Infinity']);
  });

  it('reads SQL NULL and escaped strings', () => {
    expect(parseAgtype(null)).toBeNull();
    expect(parseAgtype('"a\\"b\\\\"')).toBe('a"b\\');
  });
});

describe('checkCypherText: the work a query makes up is bounded before the database sees it (issue 27 §3)', () => {
  it('refuses a product of ranges, one huge range, and a range whose size is not written', () => {
    expect(refusal('UNWIND range(1,3000) AS a UNWIND range(1,3000) AS b RETURN count(b)')?.reason).toBe('too_much_work');
    expect(refusal('UNWIND range(1,3000000) AS a RETURN count(a)')?.reason).toBe('too_much_work');
    expect(refusal('MATCH (n) RETURN size(range(1, n.x))')?.reason).toBe('too_much_work');
    expect(refusal('RETURN [x IN range(1,5000) | [y IN range(1,5000) | y]]')?.reason).toBe('too_much_work');
    expect(refusal('MATCH (n) WITH collect(n) AS xs UNWIND xs AS a UNWIND xs AS b RETURN count(*)')?.reason).toBe('too_much_work');
  });

  it('says what was too much', () => {
    expect(() => checkCypherText('UNWIND range(1,3000) AS a UNWIND range(1,3000) AS b RETURN count(b)')).toThrow(/would make about 9\.0e\+6 rows; at most 1e\+5/);
    expect(() => checkCypherText('UNWIND range(1,3000000) AS a RETURN count(a)')).toThrow(/range\(\) would make 3000000 values; at most 10000/);
  });

  it('lets small ranges, lists and one unwind of a collected list through', () => {
    expect(refusal('UNWIND range(1,100) AS a UNWIND range(1,100) AS b RETURN count(b)')).toBeUndefined();
    expect(refusal('UNWIND range(10, 1, -1) AS a RETURN a')).toBeUndefined();
    expect(refusal('UNWIND [1, 2, 3] AS a RETURN a')).toBeUndefined();
    expect(refusal('MATCH (n:Ticket) WITH collect(n.key) AS keys UNWIND keys AS k RETURN k')).toBeUndefined();
    expect(refusal('MATCH (n) RETURN n.range, n.unwind')).toBeUndefined();
  });
});
