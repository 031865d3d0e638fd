/**
 * The database password never reaches a message: `redactUrl` hides it in every
 * form a connection string takes (URL userinfo with any character in it,
 * `password=`/`sslpassword=` parameters, libpq key=value strings, whatever
 * does not parse), keeping host and database readable; and opening a store on
 * an unreachable server fails with a message (and a cause) free of it.
 */
import { createServer, type AddressInfo } from 'node:net';
import { inspect } from 'node:util';
import { describe, expect, it } from 'vitest';
import { createPostgresStore, redactUrl, scrubSecrets } from '../../src/store/postgres.js';
import { StoreUnavailableError } from '../../src/store/types.js';

interface Case {
  name: string;
  input: string;
  /** Substrings that must not survive (the secret, whole and in pieces that only it holds). */
  secrets: string[];
  /** Substrings that must (host, database, user, harmless parameters). */
  keeps: string[];
  /** The exact output, where it is worth pinning. */
  exact?: string;
}

const CASES: Case[] = [
  {
    name: 'a plain userinfo password',
    input: 'postgres://gateflow:s3cr3tPw@db.example.com:5432/app',
    secrets: ['s3cr3tPw'],
    keeps: ['gateflow', 'db.example.com:5432', '/app'],
    exact: 'postgres://gateflow:***@db.example.com:5432/app',
  },
  {
    name: 'a password holding @',
    input: 'postgres://u:p@ss@host/db',
    secrets: ['p@ss', 'ss@'],
    keeps: ['host/db'],
    exact: 'postgres://u:***@host/db',
  },
  {
    name: 'a password holding @ several times, : and /',
    input: 'postgresql://app_user:a:b/c@d@e:f@db-1.internal:6432/gateflow?sslmode=require',
    secrets: ['a:b/c@d@e:f', 'b/c', 'd@e', 'e:f'],
    keeps: ['app_user', 'db-1.internal:6432', '/gateflow', 'sslmode=require'],
    exact: 'postgresql://app_user:***@db-1.internal:6432/gateflow?sslmode=require',
  },
  {
    name: 'a percent-encoded password',
    input: 'postgres://u:p%40ss%2Fw%3Ard%25x@host:5432/db',
    secrets: ['p%40ss', 'p@ss/w:rd%x', '%2Fw', 'ss/w'],
    keeps: ['host:5432/db'],
    exact: 'postgres://u:***@host:5432/db',
  },
  {
    name: 'a password holding ? and #',
    input: 'postgres://u:pw?x=1#frag@host/db',
    secrets: ['pw?x', 'x=1', '#frag'],
    keeps: ['host/db'],
    exact: 'postgres://u:***@host/db',
  },
  {
    name: 'an empty user name',
    input: 'postgres://:topsecret@host/db',
    secrets: ['topsecret'],
    keeps: ['host/db'],
    exact: 'postgres://:***@host/db',
  },
  {
    name: 'an IPv6 host',
    input: 'postgres://u:hunter22@[::1]:5432/db',
    secrets: ['hunter22'],
    keeps: ['[::1]:5432/db'],
    exact: 'postgres://u:***@[::1]:5432/db',
  },
  {
    name: 'a password= query parameter',
    input: 'postgres://u@host:5432/db?password=qwerty123&sslmode=require',
    secrets: ['qwerty123'],
    keeps: ['u@host:5432/db', 'sslmode=require'],
    exact: 'postgres://u@host:5432/db?password=***&sslmode=require',
  },
  {
    name: 'PASSWORD= and Password= in other cases, not first',
    input: 'postgres://host/db?application_name=x&PASSWORD=UpperSecret&Password=MixedSecret',
    secrets: ['UpperSecret', 'MixedSecret'],
    keeps: ['host/db', 'application_name=x'],
    exact: 'postgres://host/db?application_name=x&PASSWORD=***&Password=***',
  },
  {
    name: 'sslpassword=',
    input: 'postgres://u@host/db?sslmode=verify-full&sslkey=/k.pem&sslpassword=keyPhrase9',
    secrets: ['keyPhrase9'],
    keeps: ['host/db', 'sslmode=verify-full', 'sslkey=/k.pem'],
  },
  {
    name: 'a percent-encoded parameter name',
    input: 'postgres://host/db?pass%77ord=sneakyOne',
    secrets: ['sneakyOne'],
    keeps: ['host/db'],
  },
  {
    name: 'a password parameter value holding @, # and ?',
    input: 'postgres://host/db?password=p@ss#w?rd&x=1',
    secrets: ['p@ss', 'w?rd'],
    keeps: ['host/db', 'x=1'],
    exact: 'postgres://host/db?password=***&x=1',
  },
  {
    name: 'a password parameter inside another parameter value',
    input: 'postgres://host/db?a=1?password=shadowed1&b=2',
    secrets: ['shadowed1'],
    keeps: ['host/db', 'a=1', 'b=2'],
  },
  {
    name: 'a password parameter holding @, : and / after a user without password',
    input: 'postgres://gateflow@127.0.0.1:5432/db?password=Top$ecret@pa:ss/word',
    secrets: ['Top$ecret', 'pa:ss', 'ss/word'],
    keeps: ['gateflow@127.0.0.1'],
  },
  {
    name: 'userinfo and a parameter both',
    input: 'postgres://u:first-secret@host/db?sslpassword=second-secret',
    secrets: ['first-secret', 'second-secret'],
    keeps: ['host/db'],
    exact: 'postgres://u:***@host/db?sslpassword=***',
  },
  {
    name: 'a userinfo password and an @ in a later parameter (hidden up to the last @, conservatively)',
    input: 'postgres://u:pw-1234@host/db?application_name=me@work',
    secrets: ['pw-1234'],
    keeps: ['work'],
  },
  {
    name: 'libpq key=value',
    input: 'host=db.example.com port=5432 dbname=app user=gateflow password=kvSecret1 sslmode=require',
    secrets: ['kvSecret1'],
    keeps: ['host=db.example.com', 'port=5432', 'dbname=app', 'user=gateflow', 'sslmode=require'],
    exact: 'host=db.example.com port=5432 dbname=app user=gateflow password=*** sslmode=require',
  },
  {
    name: 'libpq key=value with a quoted password holding spaces, quotes and =',
    input: "host=db dbname=app password='se cr\\'et = x' user=u",
    secrets: ['se cr', "cr\\'et", 'et = x'],
    keeps: ['host=db', 'dbname=app', 'user=u'],
    exact: 'host=db dbname=app password=*** user=u',
  },
  {
    name: 'libpq key=value with spaces around = and an escaped space',
    input: 'host = db  PASSWORD = pass\\ word  sslpassword=kp1234 dbname=app',
    secrets: ['pass\\ word', 's\\ w', 'kp1234'],
    keeps: ['host = db', 'dbname=app'],
  },
  {
    name: 'libpq key=value with an unterminated quote (the rest hidden)',
    input: "host=db dbname=app password='never closed secret",
    secrets: ['never closed', 'secret'],
    keeps: ['host=db', 'dbname=app'],
  },
  {
    name: 'no scheme: user:password@host',
    input: 'gateflow:noScheme99@db.example.com/app',
    secrets: ['noScheme99'],
    keeps: ['db.example.com/app'],
    exact: '***@db.example.com/app',
  },
  {
    name: 'something that parses as nothing',
    input: 'postgres:/u:broken-secret@@@ !!',
    secrets: ['broken-secret'],
    keeps: [],
  },
];

describe('redactUrl', () => {
  for (const c of CASES) {
    it(`hides ${c.name}`, () => {
      const out = redactUrl(c.input);
      for (const secret of c.secrets) expect(out, `${c.input} → ${out}`).not.toContain(secret);
      for (const keep of c.keeps) expect(out, `${c.input} → ${out}`).toContain(keep);
      if (c.exact !== undefined) expect(out).toBe(c.exact);
    });
  }

  it('leaves strings without secrets as they are', () => {
    for (const s of [
      'postgres://host/db',
      'postgres://gateflow@127.0.0.1:5432/gateflow_test',
      'postgres://host:5432/db?sslmode=require&application_name=gateflow',
      'postgres://host/db?options=-c%20search_path%3Dgf_1',
      'host=db port=5432 dbname=app',
      '/var/run/postgresql app',
      'db.example.com',
    ])
      expect(redactUrl(s)).toBe(s);
  });
});

describe('scrubSecrets', () => {
  it('hides every form of the password in a message, longest first', () => {
    const url = 'postgres://u:p%40ss-Word@host/db?sslpassword=key-phrase';
    expect(scrubSecrets('auth failed for p@ss-Word, p%40ss-Word and key-phrase', url)).toBe('auth failed for ***, *** and ***');
    expect(scrubSecrets('nothing here', url)).toBe('nothing here');
    expect(scrubSecrets("bad: se cr'et", "host=x password='se cr\\'et'")).toBe('bad: ***');
  });
});

describe('opening a PostgreSQL store that cannot be reached', () => {
  const PASSWORD = 'Top$ecret@pa:ss/word';
  const closedPort = () =>
    new Promise<number>((resolve) => {
      const s = createServer();
      s.listen(0, '127.0.0.1', () => {
        const { port } = s.address() as AddressInfo;
        s.close(() => resolve(port));
      });
    });
  const failure = async (connectionString: string): Promise<StoreUnavailableError> => {
    const error = await createPostgresStore({ connectionString, timeouts: { connectMs: 1000 } }).then(
      async (s) => {
        await s.close();
        return null;
      },
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(StoreUnavailableError);
    return error as StoreUnavailableError;
  };
  const expectNoPassword = (error: Error, pieces: string[]) => {
    for (const text of [error.message, String(error.stack), inspect(error, { depth: 10 })])
      for (const piece of pieces) expect(text, text).not.toContain(piece);
  };

  it('never says the password, encoded or not, in the message or the cause', async () => {
    const port = await closedPort();
    const error = await failure(`postgres://gateflow:${encodeURIComponent(PASSWORD)}@127.0.0.1:${port}/gateflow_test`);
    expect(error.message).toContain(`gateflow:***@127.0.0.1:${port}/gateflow_test`);
    expect(error.message).toMatch(/ECONNREFUSED/);
    expectNoPassword(error, [PASSWORD, encodeURIComponent(PASSWORD), 'Top$ecret', 'pa:ss', 'ss/word']);
  });

  it('nor when the password is given raw, with @, : and / in it', async () => {
    const port = await closedPort();
    for (const url of [
      `postgres://gateflow:${PASSWORD}@127.0.0.1:${port}/gateflow_test`,
      `postgres://gateflow@127.0.0.1:${port}/gateflow_test?password=${PASSWORD}`,
      `postgres://gateflow@127.0.0.1:${port}/gateflow_test?PassWord=${encodeURIComponent(PASSWORD)}`,
    ]) {
      const error = await failure(url);
      expect(error.message).toMatch(/^postgres store: cannot open /);
      expectNoPassword(error, [PASSWORD, encodeURIComponent(PASSWORD), 'Top$ecret', 'ss/word']);
    }
  });
});
