/**
 * A TCP proxy on loopback in front of a real server, whose link can be frozen:
 * while frozen, nothing is forwarded in either direction and no socket is
 * closed (a network partition, not a refused or reset connection); new
 * connections are accepted but not forwarded either. Thawing forwards again.
 *
 * What a side sends while frozen is held back and delivered on thaw, unless a
 * side of that connection closed in the meantime: then the pair is torn down on
 * thaw without delivering anything, so a request its client gave up on never
 * reaches the server late.
 */
import { createConnection, createServer, type AddressInfo, type Server, type Socket } from 'node:net';

export interface TcpProxy {
  host: string;
  port: number;
  /** Stops forwarding, both ways, on every connection (present and future), without closing any. */
  freeze(): void;
  /** Forwards again. */
  thaw(): void;
  readonly frozen: boolean;
  /** Connections accepted so far (frozen ones included). */
  readonly accepted: number;
  /** Connections currently open on the client side. */
  readonly open: number;
  close(): Promise<void>;
}

interface Pair {
  client: Socket;
  upstream: Socket | null;
  /** Chunks received while frozen, by direction. */
  toUpstream: Buffer[];
  toClient: Buffer[];
  /** A side closed while frozen: tear the pair down on thaw. */
  doomed: boolean;
}

export async function startTcpProxy(target: { host: string; port: number }): Promise<TcpProxy> {
  let frozen = false;
  let accepted = 0;
  const pairs = new Set<Pair>();

  const teardown = (pair: Pair) => {
    pairs.delete(pair);
    pair.client.destroy();
    pair.upstream?.destroy();
  };

  const connectUpstream = (pair: Pair) => {
    const upstream = createConnection({ host: target.host, port: target.port });
    pair.upstream = upstream;
    upstream.on('data', (chunk: Buffer) => {
      if (frozen) pair.toClient.push(chunk);
      else pair.client.write(chunk);
    });
    const closed = () => {
      if (frozen) pair.doomed = true;
      else teardown(pair);
    };
    upstream.on('end', closed);
    upstream.on('close', closed);
    upstream.on('error', closed);
  };

  const server: Server = createServer({ allowHalfOpen: false }, (client) => {
    accepted++;
    const pair: Pair = { client, upstream: null, toUpstream: [], toClient: [], doomed: false };
    pairs.add(pair);
    client.on('data', (chunk: Buffer) => {
      if (frozen || !pair.upstream) pair.toUpstream.push(chunk);
      else pair.upstream.write(chunk);
    });
    const closed = () => {
      if (frozen) pair.doomed = true;
      else teardown(pair);
    };
    client.on('end', closed);
    client.on('close', closed);
    client.on('error', closed);
    if (!frozen) connectUpstream(pair);
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve());
  });
  const { port } = server.address() as AddressInfo;

  return {
    host: '127.0.0.1',
    port,
    get frozen() {
      return frozen;
    },
    get accepted() {
      return accepted;
    },
    get open() {
      return [...pairs].filter((p) => !p.client.destroyed).length;
    },
    freeze() {
      frozen = true;
    },
    thaw() {
      frozen = false;
      for (const pair of [...pairs]) {
        if (pair.doomed || pair.client.destroyed) {
          teardown(pair);
          continue;
        }
        if (!pair.upstream) connectUpstream(pair);
        for (const chunk of pair.toUpstream.splice(0)) pair.upstream!.write(chunk);
        for (const chunk of pair.toClient.splice(0)) pair.client.write(chunk);
      }
    },
    close: () =>
      new Promise<void>((resolve) => {
        for (const pair of [...pairs]) teardown(pair);
        server.close(() => resolve());
      }),
  };
}
