/**
 * graphql-ws's `subscribe`: as graphql's own (the field's subscribe runs once per subscriber, with its context:
 * that is where each subscription is authorized), except that each event is executed once per (operation text,
 * operation name, variables, signed-in user) and the result is shared by every subscriber with that same key:
 * the tabs of one user on one chat session get an answer's token through ONE GraphQL execution, not one each.
 * A result depends on nothing else (resolvers see the event, the arguments and the user), so sharing it changes
 * nothing a client receives. Not signed in: executed per subscriber, as before.
 */
import { createSourceEventStream, type ExecutionArgs, type ExecutionResult, execute, print } from "graphql";
import type { GraphQLContext } from "./context";

type Execution = ExecutionResult | Promise<ExecutionResult>;

/** event (the bus's payload object, the same one for every subscriber) → key → its execution */
const executions = new WeakMap<object, Map<string, Execution>>();

/** The key under which subscribers share an event's execution; null when they must not (nobody signed in). */
function shareKey(args: ExecutionArgs): string | null {
  const user = (args.contextValue as GraphQLContext | undefined)?.user;
  if (!user) return null;
  return JSON.stringify([
    String(user._id),
    args.operationName ?? null,
    args.variableValues ?? null,
    print(args.document),
  ]);
}

export async function subscribeSharingExecutions(
  args: ExecutionArgs,
): Promise<AsyncIterableIterator<ExecutionResult> | ExecutionResult> {
  const stream = await createSourceEventStream(args);
  if (!(Symbol.asyncIterator in stream)) return stream as ExecutionResult; // refused when subscribing
  const key = shareKey(args);
  const run = (event: unknown): Execution => {
    if (key === null || typeof event !== "object" || event === null)
      return execute({ ...args, rootValue: event });
    let byKey = executions.get(event);
    if (!byKey) {
      byKey = new Map();
      executions.set(event, byKey);
    }
    let done = byKey.get(key);
    if (!done) {
      done = execute({ ...args, rootValue: event });
      byKey.set(key, done);
    }
    return done;
  };
  return mapEvents(stream as AsyncIterableIterator<unknown>, run);
}

/** `source` with each value mapped; return()/throw() reach the source at once (an unsubscribed client). */
function mapEvents<T, R>(
  source: AsyncIterableIterator<T>,
  map: (value: T) => R | Promise<R>,
): AsyncIterableIterator<R> {
  const done = (): Promise<IteratorResult<R>> => Promise.resolve({ value: undefined, done: true });
  const it: AsyncIterableIterator<R> = {
    async next() {
      const r = await source.next();
      if (r.done) return { value: undefined, done: true };
      try {
        return { value: await map(r.value), done: false };
      } catch (err) {
        await source.return?.();
        throw err;
      }
    },
    return: async () => {
      await source.return?.();
      return done();
    },
    throw: async (err: unknown) => {
      await source.return?.();
      throw err;
    },
    [Symbol.asyncIterator]: () => it,
  };
  return it;
}
