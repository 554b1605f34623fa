/** Where a request came from; used for rate limits and the session record. */
import { isIPv4, isIPv6 } from "node:net";

export interface RequestMeta {
  ip?: string;
  userAgent?: string;
}

/** The eight 16-bit groups of a valid IPv6 address (`::` expanded, a trailing dotted quad as two groups). */
function ipv6Groups(address: string): number[] | null {
  const toGroups = (part: string): number[] =>
    part === ""
      ? []
      : part.split(":").flatMap((g) => {
          if (!g.includes(".")) return [Number.parseInt(g, 16)];
          const [a, b, c, d] = g.split(".").map(Number) as [number, number, number, number];
          return [(a << 8) | b, (c << 8) | d];
        });
  const [head, tail] = address.split("::") as [string, string | undefined];
  const front = toGroups(head);
  if (tail === undefined) return front.length === 8 ? front : null;
  const back = toGroups(tail);
  return [...front, ...Array(8 - front.length - back.length).fill(0), ...back];
}

/**
 * The key of per-IP limits: the client's IPv4 address (also when the socket reports it IPv4-mapped,
 * `::ffff:192.0.2.1`), or the /64 network of an IPv6 address. One IPv6 subscriber holds a whole /64 (usually
 * more), so keying single IPv6 addresses would give a guesser 2^64 fresh addresses to guess from.
 */
export function ipKey(meta: RequestMeta): string {
  const ip = meta.ip?.trim();
  if (!ip) return "unknown";
  if (isIPv4(ip)) return ip;
  const address = (ip.split("%")[0] as string).toLowerCase();
  if (!isIPv6(address)) return ip;
  const groups = ipv6Groups(address);
  if (!groups) return ip;
  const mapped = groups.slice(0, 5).every((g) => g === 0) && groups[5] === 0xffff;
  if (mapped) {
    const [hi, lo] = [groups[6] as number, groups[7] as number];
    return [hi >> 8, hi & 255, lo >> 8, lo & 255].join(".");
  }
  return `${groups
    .slice(0, 4)
    .map((g) => g.toString(16))
    .join(":")}::/64`;
}

/**
 * The key of a limit per (subject, client address): an account's e-mail address, or a mail kind and address.
 * The address part never holds "|", so no two pairs share a key.
 */
export function pairKey(subject: string, meta: RequestMeta): string {
  return `${ipKey(meta)}|${subject}`;
}
