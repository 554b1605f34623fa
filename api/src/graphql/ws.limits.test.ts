import type { IncomingMessage } from "node:http";
import { describe, expect, it } from "vitest";
import { BODY_LIMIT } from "../app";
import {
  allowedOrigins,
  clientIp,
  isAllowedOrigin,
  SocketRegistry,
  tooManySubscriptionsError,
  WS_MAX_PAYLOAD_BYTES,
  wsCloseReasons,
} from "./ws.limits";

describe("websocket limits", () => {
  it("should allow websocket messages as large as an HTTP body, no larger", () => {
    const match = /^(\d+)mb$/.exec(BODY_LIMIT);
    expect(match, `BODY_LIMIT ${BODY_LIMIT}: keep WS_MAX_PAYLOAD_BYTES in step`).not.toBeNull();
    expect(WS_MAX_PAYLOAD_BYTES).toBe(Number(match?.[1]) * 1024 * 1024);
  });

  it("should keep every close reason within the 123 bytes a close frame allows", () => {
    for (const reason of [wsCloseReasons.tooManySockets(), wsCloseReasons.originRefused()]) {
      expect(Buffer.byteLength(reason, "utf8")).toBeLessThanOrEqual(123);
    }
  });

  it("should give the subscription limit a Danish message and a stable code", () => {
    const error = tooManySubscriptionsError(10);
    expect(error.message).toBe(
      "For mange samtidige abonnementer på denne forbindelse (højst 10). Afslut nogle, før du starter flere.",
    );
    expect(error.toJSON()).toEqual({
      message: error.message,
      extensions: {
        code: "TOO_MANY_REQUESTS",
        messageKey: "ws.tooManySubscriptions",
        messageParams: { max: 10 },
      },
    });
  });
});

describe("isAllowedOrigin", () => {
  const allowed = allowedOrigins({
    appUrl: "https://vidensbank.example.dk/app",
    allowedOrigins: ["http://localhost:5173"],
  });

  it("should allow APP_URL's origin and the configured ones", () => {
    expect([...allowed]).toEqual(["https://vidensbank.example.dk", "http://localhost:5173"]);
    expect(isAllowedOrigin("https://vidensbank.example.dk", allowed)).toBe(true);
    expect(isAllowedOrigin("http://localhost:5173", allowed)).toBe(true);
  });

  it.each([
    [undefined],
    ["null"],
    [""],
    ["http://vidensbank.example.dk"],
    ["https://vidensbank.example.dk:8443"],
    ["https://evil.example.dk"],
    ["https://vidensbank.example.dk.evil.com"],
    ["https://evilvidensbank.example.dk"],
    ["https://vidensbank.example.dk/"],
    ["http://localhost:5174"],
    ["http://127.0.0.1:5173"],
  ])("should refuse %s", (origin) => {
    expect(isAllowedOrigin(origin, allowed)).toBe(false);
  });
});

describe("clientIp", () => {
  const req = (remoteAddress: string, forwardedFor?: string) =>
    ({
      socket: { remoteAddress },
      headers: forwardedFor === undefined ? {} : { "x-forwarded-for": forwardedFor },
    }) as unknown as IncomingMessage;

  it("should ignore X-Forwarded-For when no proxy is trusted", () => {
    expect(clientIp(req("10.0.0.5", "203.0.113.7"), 0)).toBe("10.0.0.5");
  });

  it("should walk back as many hops as are trusted, like Express's trust proxy", () => {
    // client 198.51.100.1 → (spoofed entry first) → proxy A 10.0.0.9 → proxy B 10.0.0.5 → us
    const r = req("10.0.0.5", "1.2.3.4, 198.51.100.1, 10.0.0.9");
    expect(clientIp(r, 1)).toBe("10.0.0.9");
    expect(clientIp(r, 2)).toBe("198.51.100.1");
    expect(clientIp(req("10.0.0.5"), 1)).toBe("10.0.0.5");
    expect(clientIp(req("10.0.0.5", "198.51.100.1"), 5)).toBe("198.51.100.1");
  });
});

describe("SocketRegistry", () => {
  const limits = { unauthenticatedPerIp: 2, perUser: 2 };

  it("should count sockets not signed in per IP and free the place on sign-in or close", () => {
    const registry = new SocketRegistry<object>(limits);
    const [a, b, c] = [{}, {}, {}];
    registry.opened(a, "1.1.1.1");
    expect(registry.mayOpen("1.1.1.1")).toBe(true);
    registry.opened(b, "1.1.1.1");
    expect(registry.mayOpen("1.1.1.1")).toBe(false);
    expect(registry.mayOpen("2.2.2.2")).toBe(true);
    expect(registry.signIn(a, "u1")).toBe("ok");
    expect(registry.mayOpen("1.1.1.1")).toBe(true);
    registry.opened(c, "1.1.1.1");
    registry.closed(b);
    registry.closed(c);
    expect(registry.counts()).toEqual({ unauthenticatedPerIp: {}, perUser: { u1: 1 } });
    registry.closed(a);
    registry.closed(a); // twice is harmless
    expect(registry.counts()).toEqual({ unauthenticatedPerIp: {}, perUser: {} });
  });

  it("should refuse a user's socket past the limit and leave it counted as not signed in", () => {
    const registry = new SocketRegistry<object>(limits);
    const sockets = [{}, {}, {}];
    for (const s of sockets) registry.opened(s, "1.1.1.1");
    expect(sockets.map((s) => registry.signIn(s, "u1"))).toEqual(["ok", "ok", "too-many"]);
    expect([...registry.socketsOf("u1")]).toEqual(sockets.slice(0, 2));
    expect(registry.counts()).toEqual({ unauthenticatedPerIp: { "1.1.1.1": 1 }, perUser: { u1: 2 } });
  });

  it("should not sign in a socket that closed while its token was being checked", () => {
    const registry = new SocketRegistry<object>(limits);
    const s = {};
    registry.opened(s, "1.1.1.1");
    registry.closed(s);
    expect(registry.signIn(s, "u1")).toBe("closed");
    expect(registry.counts()).toEqual({ unauthenticatedPerIp: {}, perUser: {} });
  });
});
