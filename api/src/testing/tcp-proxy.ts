/**
 * A TCP proxy in front of the store for the failure tests: what a network or a crashed store host does to a
 * client's connections, on demand.
 *
 * - blackhole(): the connections stay open but nothing passes any more, in either direction, and new ones are
 *   accepted but never answered (a store host that froze or lost its network: no FIN, no RST).
 * - heal(): connections opened from now on reach the target again (the old ones stay dead).
 */
import net from "node:net";

export interface TcpProxy {
  /** the proxy's port on 127.0.0.1 */
  port: number;
  blackhole(): void;
  heal(): void;
  close(): Promise<void>;
}

export async function startTcpProxy(target: { host?: string; port: number }): Promise<TcpProxy> {
  const pairs = new Set<{ client: net.Socket; upstream: net.Socket | null }>();
  let dark = false;

  const server = net.createServer((client) => {
    client.on("error", () => undefined);
    if (dark) {
      // accepted, never answered (the client's connect succeeds; its first command waits)
      pairs.add({ client, upstream: null });
      client.pause();
      return;
    }
    const upstream = net.connect(target.port, target.host ?? "127.0.0.1");
    const pair = { client, upstream };
    pairs.add(pair);
    upstream.on("error", () => client.destroy());
    client.on("close", () => {
      upstream.destroy();
      pairs.delete(pair);
    });
    upstream.on("close", () => {
      if (!dark) client.destroy();
    });
    client.pipe(upstream);
    upstream.pipe(client);
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const port = (server.address() as net.AddressInfo).port;

  return {
    port,
    blackhole() {
      dark = true;
      for (const { client, upstream } of pairs) {
        client.unpipe();
        upstream?.unpipe();
        client.pause();
        upstream?.destroy();
      }
    },
    heal() {
      dark = false;
    },
    async close() {
      for (const { client, upstream } of pairs) {
        client.destroy();
        upstream?.destroy();
      }
      pairs.clear();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
