/**
 * @vidensbank/embedded-mongo/uri: small helpers for mongodb:// URIs that carry credentials, so nothing builds a
 * store URI by hand from host and port (and drops the login) or prints a password.
 */

const SCHEME = /^(mongodb(?:\+srv)?:\/\/)([^/?#]*)(.*)$/s;

function split(uri: string): { scheme: string; authority: string; rest: string } {
  const m = SCHEME.exec(uri);
  if (!m) throw new Error("not a mongodb:// URI");
  return { scheme: m[1], authority: m[2], rest: m[3] };
}

/** `mongodb://user:pass@host:port/?authSource=admin&authMechanism=SCRAM-SHA-256` for the embedded store. */
export function storeUri(
  host: string,
  port: number,
  credentials: { user: string; password: string },
): string {
  const h = host.includes(":") ? `[${host}]` : host;
  const login = `${encodeURIComponent(credentials.user)}:${encodeURIComponent(credentials.password)}@`;
  return `mongodb://${login}${h}:${port}/?authSource=admin&authMechanism=SCRAM-SHA-256`;
}

/** The URI with its password replaced by *** (for logs); anything that is not a mongodb:// URI is left as is. */
export function redactUri(uri: string): string {
  const m = SCHEME.exec(uri);
  if (!m) return uri;
  const at = m[2].lastIndexOf("@");
  if (at < 0) return uri;
  const userinfo = m[2].slice(0, at);
  const colon = userinfo.indexOf(":");
  if (colon < 0) return uri;
  return `${m[1]}${userinfo.slice(0, colon)}:***${m[2].slice(at)}${m[3]}`;
}

/** The URI naming database `db` in its path (the query, and with it the login options, kept). */
export function withDatabase(uri: string, db: string): string {
  const { scheme, authority, rest } = split(uri);
  const q = rest.search(/[?#]/);
  const query = q < 0 ? "" : rest.slice(q);
  return `${scheme}${authority}/${encodeURIComponent(db)}${query}`;
}

/** The URI pointing at host:port instead (e.g. a proxy in front of the store), login and options kept. */
export function withHostPort(uri: string, host: string, port: number): string {
  const { scheme, authority, rest } = split(uri);
  const at = authority.lastIndexOf("@");
  const login = at < 0 ? "" : authority.slice(0, at + 1);
  const h = host.includes(":") ? `[${host}]` : host;
  return `${scheme}${login}${h}:${port}${rest}`;
}
