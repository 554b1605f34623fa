/** subscribeSharingExecutions: one execution per event and (operation, variables, user), shared by subscribers. */
import {
  type ExecutionResult,
  GraphQLError,
  GraphQLObjectType,
  GraphQLSchema,
  GraphQLString,
  parse,
} from "graphql";
import { describe, expect, it } from "vitest";
import { createInProcessBus } from "../events/in-process";
import { subscribeSharingExecutions } from "./ws.execute";

declare module "../events/bus" {
  interface Topics {
    TEST_SHARED_EXECUTION: { text: string };
  }
}

function world() {
  const bus = createInProcessBus();
  let executions = 0;
  const schema = new GraphQLSchema({
    query: new GraphQLObjectType({ name: "Query", fields: { ok: { type: GraphQLString } } }),
    subscription: new GraphQLObjectType({
      name: "Subscription",
      fields: {
        said: {
          type: new GraphQLObjectType({
            name: "Said",
            fields: { text: { type: GraphQLString }, shout: { type: GraphQLString } },
          }),
          args: { room: { type: GraphQLString } },
          subscribe: (_root, args) => {
            if (args.room === "closed") throw new GraphQLError("not yours");
            return bus.subscribe("TEST_SHARED_EXECUTION");
          },
          resolve: (event: { text: string }, _args, ctx: { user: { _id: string } | null }) => {
            executions++;
            return { text: event.text, shout: `${event.text.toUpperCase()} (${ctx.user?._id ?? "-"})` };
          },
        },
      },
    }),
  });
  const subscribe = async (query: string, user: string | null, room = "a") => {
    const result = await subscribeSharingExecutions({
      schema,
      document: parse(query),
      variableValues: { room },
      contextValue: { user: user ? { _id: user } : null },
    });
    if (!(Symbol.asyncIterator in result)) throw new Error(JSON.stringify(result));
    return result as AsyncIterableIterator<ExecutionResult>;
  };
  return { bus, subscribe, executions: () => executions, schema };
}

const Q1 = "subscription($room: String) { said(room: $room) { text shout } }";
const Q2 = "subscription($room: String) { said(room: $room) { text } }";

describe("subscribeSharingExecutions", () => {
  it("executes an event once for the subscribers of one user with the same operation and variables", async () => {
    const w = world();
    const tabs = [await w.subscribe(Q1, "u1"), await w.subscribe(Q1, "u1"), await w.subscribe(Q1, "u1")];
    const next = tabs.map((t) => t.next());
    w.bus.publish("TEST_SHARED_EXECUTION", { text: "hej" });
    const results = await Promise.all(next);
    for (const r of results) expect(r.value).toEqual({ data: { said: { text: "hej", shout: "HEJ (u1)" } } });
    expect(w.executions()).toBe(1);
    for (const t of tabs) await t.return?.();
  });

  it("executes apart for another user, another selection, other variables, or nobody signed in", async () => {
    const w = world();
    const subs = [
      await w.subscribe(Q1, "u1"),
      await w.subscribe(Q1, "u2"),
      await w.subscribe(Q2, "u1"),
      await w.subscribe(Q1, "u1", "b"),
      await w.subscribe(Q1, null),
      await w.subscribe(Q1, null),
    ];
    const next = subs.map((t) => t.next());
    w.bus.publish("TEST_SHARED_EXECUTION", { text: "hej" });
    const results = (await Promise.all(next)).map((r) => r.value);
    expect(results[1]).toEqual({ data: { said: { text: "hej", shout: "HEJ (u2)" } } });
    expect(results[2]).toEqual({ data: { said: { text: "hej" } } });
    expect(w.executions()).toBe(6);
    for (const t of subs) await t.return?.();
  });

  it("answers a refused subscription with its errors, and ends the source when the client leaves", async () => {
    const w = world();
    const refused = await subscribeSharingExecutions({
      schema: w.schema,
      document: parse(Q1),
      variableValues: { room: "closed" },
      contextValue: { user: { _id: "u1" } },
    });
    expect((refused as ExecutionResult).errors?.[0]?.message).toBe("not yours");
    const sub = await w.subscribe(Q1, "u1");
    const pending = sub.next();
    await sub.return?.();
    expect(await pending).toEqual({ value: undefined, done: true });
  });
});
