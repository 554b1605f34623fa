/**
 * Secrets of the Notion connection. The saved token is encrypted at rest with AES-256-GCM under a key derived
 * (HKDF-SHA256) from NOTION_ENCRYPTION_KEY, or from the JWT secret when that is not set; the OAuth `state` is an
 * HMAC-signed, expiring value under a second key derived the same way. Changing the key material makes a saved
 * token unreadable: the app then reports Notion as not connected (connect again).
 */
import {
  createCipheriv,
  createDecipheriv,
  createHmac,
  hkdfSync,
  randomBytes,
  timingSafeEqual,
} from "node:crypto";

export const OAUTH_STATE_TTL_MS = 10 * 60_000;

export class NotionSecrets {
  private readonly encKey: Buffer;
  private readonly stateKey: Buffer;

  constructor(material: Uint8Array | string) {
    const ikm = typeof material === "string" ? Buffer.from(material, "utf8") : Buffer.from(material);
    this.encKey = Buffer.from(hkdfSync("sha256", ikm, "vidensbank-notion", "token-encryption", 32));
    this.stateKey = Buffer.from(hkdfSync("sha256", ikm, "vidensbank-notion", "oauth-state", 32));
  }

  /** iv.tag.ciphertext, base64url */
  encrypt(plain: string): string {
    const iv = randomBytes(12);
    const cipher = createCipheriv("aes-256-gcm", this.encKey, iv);
    const data = Buffer.concat([cipher.update(plain, "utf8"), cipher.final()]);
    return [iv, cipher.getAuthTag(), data].map((b) => b.toString("base64url")).join(".");
  }

  /** null when the value was not encrypted under this key (or was changed) */
  decrypt(sealed: string): string | null {
    const [iv, tag, data] = sealed.split(".").map((p) => Buffer.from(p, "base64url"));
    if (!iv || !tag || !data) return null;
    try {
      const d = createDecipheriv("aes-256-gcm", this.encKey, iv);
      d.setAuthTag(tag);
      return Buffer.concat([d.update(data), d.final()]).toString("utf8");
    } catch {
      return null;
    }
  }

  /** A state for the authorize URL, bound to the user who started the flow. */
  signState(userId: string, now = Date.now()): string {
    const body = Buffer.from(
      JSON.stringify({ u: userId, e: now + OAUTH_STATE_TTL_MS, n: randomBytes(8).toString("hex") }),
    ).toString("base64url");
    return `${body}.${this.mac(body)}`;
  }

  /** The user id the state was made for, or null when forged or expired. */
  verifyState(state: string, now = Date.now()): string | null {
    const [body, mac] = state.split(".");
    if (!body || !mac || state.length > 1000) return null;
    const expected = Buffer.from(this.mac(body));
    const given = Buffer.from(mac);
    if (expected.length !== given.length || !timingSafeEqual(expected, given)) return null;
    try {
      const { u, e } = JSON.parse(Buffer.from(body, "base64url").toString("utf8")) as {
        u: unknown;
        e: unknown;
      };
      return typeof u === "string" && typeof e === "number" && e > now ? u : null;
    } catch {
      return null;
    }
  }

  private mac(body: string): string {
    return createHmac("sha256", this.stateKey).update(body).digest("base64url");
  }
}
