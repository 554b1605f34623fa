/** publishWhenStored: an answer's events wait for its message's insert, and die with it. */
import { describe, expect, it } from "vitest";
import { publishWhenStored } from "./chat.events";

function deferred() {
  let resolve: () => void = () => undefined;
  let reject: (err: Error) => void = () => undefined;
  const promise = new Promise<void>((res, rej) => {
    resolve = res;
    reject = rej;
  });
  return { promise, resolve, reject };
}

describe("publishWhenStored", () => {
  it("holds events until the message is stored, then publishes them in order", async () => {
    const stored = deferred();
    const out: string[] = [];
    const publish = publishWhenStored(stored.promise, () => out.push("failed"));
    publish(() => out.push("CREATED"));
    publish(() => out.push("DELTA 1"));
    expect(out).toEqual([]);
    stored.resolve();
    await stored.promise;
    publish(() => out.push("DELTA 2"));
    expect(out).toEqual(["CREATED", "DELTA 1", "DELTA 2"]);
  });

  it("drops the held events and every later one when the insert fails", async () => {
    const stored = deferred();
    const out: string[] = [];
    const publish = publishWhenStored(stored.promise, () => out.push("failed"));
    publish(() => out.push("CREATED"));
    stored.reject(new Error("duplicate key"));
    await stored.promise.catch(() => undefined);
    publish(() => out.push("DELTA"));
    expect(out).toEqual(["failed"]);
  });

  it("publishes at once without a pending insert", () => {
    const out: string[] = [];
    publishWhenStored(undefined, () => undefined)(() => out.push("DELTA"));
    expect(out).toEqual(["DELTA"]);
  });
});
