import { describe, expect, it } from "vitest";
import { redactUri, storeUri, withDatabase, withHostPort } from "./uri";

const URI = "mongodb://vidensbank:s3cr%40t@127.0.0.1:4000/?authSource=admin&authMechanism=SCRAM-SHA-256";

describe("store URIs", () => {
  it("should build the store's URI with a percent-encoded login", () => {
    expect(storeUri("127.0.0.1", 4000, { user: "vidensbank", password: "s3cr@t" })).toBe(URI);
    expect(storeUri("::1", 5, { user: "a b", password: "x:y/z" })).toBe(
      "mongodb://a%20b:x%3Ay%2Fz@[::1]:5/?authSource=admin&authMechanism=SCRAM-SHA-256",
    );
  });

  it("should replace the password by *** and leave URIs without one alone", () => {
    expect(redactUri(URI)).toBe(
      "mongodb://vidensbank:***@127.0.0.1:4000/?authSource=admin&authMechanism=SCRAM-SHA-256",
    );
    expect(redactUri("mongodb://127.0.0.1:4000/x")).toBe("mongodb://127.0.0.1:4000/x");
    expect(redactUri("mongodb://user@h:1/")).toBe("mongodb://user@h:1/");
    expect(redactUri("mongodb+srv://u:p%40w@cluster.example/db")).toBe(
      "mongodb+srv://u:***@cluster.example/db",
    );
    expect(redactUri("not a uri")).toBe("not a uri");
    expect(redactUri(URI)).not.toContain("s3cr");
  });

  it("should put a database in the path and keep the login options", () => {
    expect(withDatabase(URI, "vidensbank")).toBe(
      "mongodb://vidensbank:s3cr%40t@127.0.0.1:4000/vidensbank?authSource=admin&authMechanism=SCRAM-SHA-256",
    );
    expect(withDatabase("mongodb://h:1/old?x=1", "new")).toBe("mongodb://h:1/new?x=1");
    expect(withDatabase("mongodb://h:1", "db")).toBe("mongodb://h:1/db");
  });

  it("should point at another host and port and keep the login and options", () => {
    expect(withHostPort(URI, "127.0.0.1", 5555)).toBe(
      "mongodb://vidensbank:s3cr%40t@127.0.0.1:5555/?authSource=admin&authMechanism=SCRAM-SHA-256",
    );
    expect(withHostPort("mongodb://h:1/db?directConnection=true", "localhost", 2)).toBe(
      "mongodb://localhost:2/db?directConnection=true",
    );
  });

  it("should refuse what is not a mongodb:// URI where it must change it", () => {
    expect(() => withDatabase("http://x/", "db")).toThrow(/mongodb/);
  });
});
