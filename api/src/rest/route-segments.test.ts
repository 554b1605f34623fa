/**
 * Routing by first path segment walks a request through the same routes, in the same order, as walking every
 * router: over a real Express app on an ephemeral port, and for every feature router the app builds.
 */
import type http from "node:http";
import express, { type Router as ExpressRouter, Router } from "express";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { REST_ROUTERS } from "../app";
import type { Services } from "../services";
import { routeBySegment, routeSegment, segmentsOf } from "./route-segments";

/** A router whose routes answer with their own name (and record what they saw). */
function named(name: string, paths: Array<[method: "get" | "post", path: string]>): ExpressRouter {
  const r = Router();
  for (const [method, path] of paths) r[method](path, (req, res) => res.json({ by: name, path: req.path }));
  return r;
}

describe("routeSegment", () => {
  it("should read a plain first segment in lower case and refuse anything else", () => {
    expect(routeSegment("/knowledge/search")).toBe("knowledge");
    expect(routeSegment("/Verify-Email")).toBe("verify-email");
    expect(routeSegment("/chat/messages/:sessionId")).toBe("chat");
    expect(routeSegment("/:id")).toBeNull();
    expect(routeSegment("/")).toBeNull();
    expect(routeSegment("/files{/:name}")).toBeNull();
    expect(routeSegment("/*splat")).toBeNull();
  });

  it("should find a plain first segment in every route of every feature router", () => {
    // a router outside the scheme would be walked for every /api request: say so here
    const services = new Proxy({}, { get: () => ({}) }) as unknown as Services;
    for (const factory of REST_ROUTERS) {
      const segments = segmentsOf(factory(services));
      expect(segments, factory.name).not.toBeNull();
      expect(segments?.size, factory.name).toBeGreaterThan(0);
    }
  });
});

describe("routeBySegment", () => {
  let server: http.Server;
  let url: string;
  beforeAll(async () => {
    const app = express();
    const api = Router();
    api.use(
      routeBySegment([
        named("auth", [
          ["get", "/auth/status"],
          ["post", "/auth/login"],
        ]),
        named("users", [
          ["get", "/user/preferences"],
          ["get", "/admin/users"],
        ]),
        named("anything", [["get", "/:thing/special"]]),
        named("notion", [
          ["get", "/auth/notion"],
          ["get", "/admin/users"], // the same path as users': the earlier router answers, as before
        ]),
      ]),
    );
    api.use((_req, res) => {
      res.status(404).json({ by: "404" });
    });
    app.use("/api", api);
    await new Promise<void>((resolve) => {
      server = app.listen(0, "127.0.0.1", () => resolve());
    });
    url = `http://127.0.0.1:${(server.address() as { port: number }).port}/api`;
  });
  afterAll(async () => {
    await new Promise((resolve) => server.close(resolve));
  });

  const by = async (path: string, method = "GET") => {
    const res = await fetch(`${url}${path}`, { method });
    return { status: res.status, ...((await res.json()) as { by: string }) };
  };

  it("should answer each path from the router that has it, in the routers' order", async () => {
    expect(await by("/auth/status")).toMatchObject({ status: 200, by: "auth" });
    expect(await by("/auth/notion")).toMatchObject({ status: 200, by: "notion" });
    expect(await by("/user/preferences")).toMatchObject({ status: 200, by: "users" });
    expect(await by("/admin/users")).toMatchObject({ status: 200, by: "users" });
  });

  it("should match as Express does: any case, a trailing slash", async () => {
    expect(await by("/AUTH/Status")).toMatchObject({ status: 200, by: "auth" });
    expect(await by("/auth/status/")).toMatchObject({ status: 200, by: "auth" });
  });

  it("should walk a router with a parameter first segment for every path", async () => {
    expect(await by("/auth/special")).toMatchObject({ status: 200, by: "anything" });
    expect(await by("/elsewhere/special")).toMatchObject({ status: 200, by: "anything" });
  });

  it("should pass on what no router has: unknown segments, other methods, the root", async () => {
    expect(await by("/nothing")).toMatchObject({ status: 404, by: "404" });
    expect(await by("/auth/status", "POST")).toMatchObject({ status: 404, by: "404" });
    expect(await by("/auth/nothing")).toMatchObject({ status: 404, by: "404" });
    expect(await by("/")).toMatchObject({ status: 404, by: "404" });
    expect(await by("/auth%2Fstatus")).toMatchObject({ status: 404, by: "404" });
  });
});
