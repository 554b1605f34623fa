/**
 * A TCP proxy in front of the store that counts the commands the apps send (`npm run bench:cluster --
 * --count-commands`): each OP_MSG from a client is named by its command and, when the command's value is a
 * collection name, that collection ("insert chat_messages", "getMore", "hello"). Counts only; it adds a hop,
 * so latency figures of such a run are not comparable with others.
 */
import net from "node:net";
import { withHostPort } from "@vidensbank/embedded-mongo/uri";

const OP_MSG = 2013;

export interface WireCounter {
  /** the URI the apps use instead of the store's */
  uri: string;
  /** commands sent so far, by name */
  counts(): Map<string, number>;
  close(): Promise<void>;
}

/** The command named by one OP_MSG (its first section's first key, and its value when a string). */
function commandOf(msg: Buffer): string | null {
  if (msg.length < 27 || msg.readInt32LE(12) !== OP_MSG || msg[20] !== 0) return null;
  const doc = 21;
  const type = msg[doc + 4];
  const keyStart = doc + 5;
  const keyEnd = msg.indexOf(0, keyStart);
  if (keyEnd < 0) return null;
  const key = msg.toString("utf8", keyStart, keyEnd);
  if (type !== 0x02) return key;
  const len = msg.readInt32LE(keyEnd + 1);
  return `${key} ${msg.toString("utf8", keyEnd + 5, keyEnd + 4 + len)}`;
}

export async function startWireCounter(storeUri: string): Promise<WireCounter> {
  const target = new URL(storeUri);
  const counts = new Map<string, number>();
  const sockets = new Set<net.Socket>();
  const server = net.createServer((client) => {
    const upstream = net.connect(Number(target.port), target.hostname);
    sockets.add(client).add(upstream);
    let pending: Buffer = Buffer.alloc(0);
    client.on("data", (chunk: Buffer) => {
      pending = pending.length ? Buffer.concat([pending, chunk]) : chunk;
      while (pending.length >= 4) {
        const len = pending.readInt32LE(0);
        if (pending.length < len) break;
        const name = commandOf(pending.subarray(0, len));
        if (name) counts.set(name, (counts.get(name) ?? 0) + 1);
        pending = pending.subarray(len);
      }
      upstream.write(chunk);
    });
    upstream.on("data", (chunk) => client.write(chunk));
    const end = () => {
      client.destroy();
      upstream.destroy();
      sockets.delete(client);
      sockets.delete(upstream);
    };
    client.on("close", end).on("error", end);
    upstream.on("close", end).on("error", end);
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as net.AddressInfo;
  // directConnection: else the driver finds the store's own address in its hello answer and goes around the proxy
  const uri = withHostPort(storeUri, "127.0.0.1", port);
  return {
    uri: `${uri}${uri.includes("?") ? "&" : "?"}directConnection=true`,
    counts: () => new Map(counts),
    close: async () => {
      for (const s of sockets) s.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

/** "12.0 insert events, 3.0 update chat_messages, …": commands per answer between two counts, most first. */
export function perAnswer(before: Map<string, number>, after: Map<string, number>, answers: number): string {
  const rows = [...after]
    .map(([name, n]) => [name, (n - (before.get(name) ?? 0)) / answers] as const)
    .filter(([, n]) => n >= 0.01)
    .sort((x, y) => y[1] - x[1]);
  const total = rows.reduce((s, [, n]) => s + n, 0);
  return `${total.toFixed(1)} commands per answer: ${rows.map(([name, n]) => `${n.toFixed(2)} ${name}`).join(", ")}`;
}
