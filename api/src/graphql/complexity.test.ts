import "reflect-metadata";
import {
  type GraphQLSchema,
  getNullableType,
  isListType,
  isObjectType,
  Kind,
  type OperationDefinitionNode,
  parse,
} from "graphql";
import { beforeAll, describe, expect, it } from "vitest";
import { MESSAGE_FIELDS, Q } from "../chat/chat.test-helpers";
import { complexityError, complexityPlugin, verdictKey } from "./complexity";
import { MAX_RESULT_COST, MAX_SELECTIONS } from "./limits";
import { LIST_SIZES, PLANNED_LIST_SIZES } from "./list-sizes";
import { buildAppSchema } from "./schema";

let schema: GraphQLSchema;
beforeAll(async () => {
  schema = await buildAppSchema();
});

const check = (query: string, variables: Record<string, unknown> = {}, operationName?: string) =>
  complexityError(schema, parse(query), operationName, variables);

/** The result and the fastest of 5 runs (the machine is shared: one run can be slowed by others). */
function timed<T>(f: () => T): { value: T; ms: number } {
  let ms = Number.POSITIVE_INFINITY;
  let value = f();
  for (let i = 0; i < 5; i++) {
    const started = performance.now();
    value = f();
    ms = Math.min(ms, performance.now() - started);
  }
  return { value, ms };
}

/** Fragments on User spreading the one below `fanout` times (no sign-in needed for `me`). */
function userFragmentBomb(levels: number, fanout = 2, inline = false): string {
  const frags = ["fragment F0 on User { id }"];
  for (let i = 1; i <= levels; i++) {
    const spreads = Array(fanout)
      .fill(`...F${i - 1}`)
      .join(" ");
    frags.push(`fragment F${i} on User { ${inline ? `... on User { ${spreads} }` : spreads} }`);
  }
  return `{ me { ...F${levels} } } ${frags.join(" ")}`;
}

const aliases = (n: number, field: string) =>
  Array.from({ length: n }, (_, i) => `a${i}: ${field}`).join(" ");

describe("complexityError: the expanded document is measured before the estimate walks it", () => {
  it.each([
    ["fanout 2, 20 levels", userFragmentBomb(20)],
    ["fanout 3, 13 levels", userFragmentBomb(13, 3)],
    ["fanout 8, 7 levels", userFragmentBomb(7, 8)],
    ["spreads inside inline fragments", userFragmentBomb(20, 2, true)],
  ])("should refuse a fragment bomb (%s) in linear time", (_name, query) => {
    const { value, ms } = timed(() => check(query));
    expect(value?.message).toBe(
      `Forespørgslen har for mange felter, når fragmenterne er foldet ud (højst ${MAX_SELECTIONS})`,
    );
    expect(value?.extensions.code).toBe("BAD_USER_INPUT");
    expect(ms).toBeLessThan(5);
  });

  it("should count only the operation asked for", () => {
    const big = `query Big { ${aliases(3000, "me { id }")} } query Small { me { id } }`;
    expect(check(big, {}, "Small")).toBeNull();
    expect(check(big, {}, "Big")?.message).toMatch(/for mange felter/);
  });
});

describe("complexityError: list fields cost by the number of items they can return", () => {
  it.each([
    ["aliases of all articles with their text", aliases(120, "knowledgeArticles { content title }")],
    // a page of a session's messages costs by its limit (at most MESSAGE_PAGE_MAX, 100)
    [
      "aliases of a session's messages",
      aliases(8, `messages(sessionId: "x", limit: 100) { ${MESSAGE_FIELDS} }`),
    ],
    [
      "aliases of the largest activity page",
      aliases(60, "activityLogs(limit: 1000) { id description metadata }"),
    ],
    [
      "aliases of the largest search page",
      aliases(
        5,
        `searchKnowledge(query: "a") { hits { snippet highlights { start end } titleHighlights { start end } article { id title content tags } } }`,
      ),
    ],
    ["aliases of the users", aliases(40, "adminUsers { id name email username createdAt }")],
  ])("should refuse %s", (_name, query) => {
    const error = check(`{ ${query} }`);
    expect(error?.message).toBe(
      `Forespørgslen kan give et for stort svar (anslået over ${MAX_RESULT_COST}); bed om færre felter eller brug limit`,
    );
    expect(error?.extensions.code).toBe("BAD_USER_INPUT");
  });

  it("should cost a list by its limit argument, from a literal or a variable, clamped as the service clamps", () => {
    const page = (limit: string) => `{ ${aliases(60, `activityLogs(limit: ${limit}) { id description }`)} }`;
    expect(check(page("10"))).toBeNull();
    expect(check(page("1000"))).not.toBeNull();
    expect(check(page("100000"))).not.toBeNull(); // clamped to 1000, still over
    const q = `query($n: Int) { ${aliases(60, "activityLogs(limit: $n) { id description }")} }`;
    expect(complexityError(schema, parse(q), undefined, { n: 10 })).toBeNull();
    expect(complexityError(schema, parse(q), undefined, { n: 1000 })).not.toBeNull();
    expect(complexityError(schema, parse(q), undefined, {})).toBeNull(); // the default page, 200
    const defaults = `{ ${aliases(300, "activityLogs { id action }")} }`; // 300 × (1 + 200 × 2)
    expect(check(defaults)).not.toBeNull();
  });

  it("should multiply nested lists", () => {
    // a page of 100 messages × (1 + 20 citations × (1 + 6 headings)): 14,101 each
    const nested = `messages(sessionId: "x", limit: 100) { citations { headingPath } }`;
    expect(check(`{ ${aliases(7, nested)} }`)).toBeNull();
    expect(check(`{ ${aliases(8, nested)} }`)).not.toBeNull();
    // the default page (50 messages) costs half
    expect(check(`{ ${aliases(14, 'messages(sessionId: "x") { citations { headingPath } }')} }`)).toBeNull();
  });

  it("should answer the operations the apps and tests use", () => {
    for (const [name, query] of Object.entries(Q)) {
      expect(
        check(query, {
          sessionId: "s",
          content: "x",
          messageId: "m",
          query: "q",
          rating: "up",
          title: "t",
          scope: { kind: "ALL" },
        }),
        name,
      ).toBeNull();
    }
    const search =
      "query($q: String!) { searchKnowledge(query: $q, limit: 10) { total hits { score snippet highlights { start end } titleHighlights { start end } article { id title category subcategory tags updatedAt } } } }";
    expect(check(search, { q: "budget" })).toBeNull();
    expect(
      check(
        "{ knowledgeArticles { id title category subcategory tags content source sourceUrl createdAt updatedAt } }",
      ),
    ).toBeNull();
    expect(
      check("{ myBookmarks { id articleId articleTitle bookmarkedAt article { id title content tags } } }"),
    ).toBeNull();
    expect(
      check(
        "{ adminUsers { id name email username role verified isActive createdAt lastLogin bookmarksCount chatSessionsCount } }",
      ),
    ).toBeNull();
    expect(
      check("{ activityLogs(limit: 1000) { id action description userEmail metadata timestamp } }"),
    ).toBeNull();
  });

  it("should keep the complexity limit on fields selected (600 small aliases)", () => {
    expect(check(`{ ${aliases(600, "me { id }")} }`)?.message).toBe(
      "Forespørgslen er for kompleks (højst 1000)",
    );
    expect(check(`{ ${aliases(50, "me { id }")} }`)).toBeNull();
  });

  it("should give every list field of the schema a size", () => {
    const lists: string[] = [];
    for (const type of Object.values(schema.getTypeMap())) {
      if (!isObjectType(type) || type.name.startsWith("__") || type.name === "Subscription") continue;
      for (const field of Object.values(type.getFields())) {
        if (isListType(getNullableType(field.type))) lists.push(`${type.name}.${field.name}`);
      }
    }
    expect(lists.filter((name) => !(name in LIST_SIZES))).toEqual([]);
    expect(PLANNED_LIST_SIZES.messagesPerSession).toBeGreaterThan(0);
  });
});

describe("complexityPlugin: a verdict is remembered per document and the variables it depends on", () => {
  const operationOf = (document: ReturnType<typeof parse>) =>
    document.definitions.find(
      (d): d is OperationDefinitionNode => d.kind === Kind.OPERATION_DEFINITION,
    ) as OperationDefinitionNode;
  const key = (query: string, variables: Record<string, unknown>) => {
    const document = parse(query);
    return verdictKey(schema, operationOf(document), undefined, variables);
  };
  const logs = `query Logs($limit: Int, $search: String, $all: Boolean!) {
    activityLogs(limit: $limit, search: $search) { id action description @include(if: $all) } }`;

  it("should key a sendMessage by the document alone: its question and session id change nothing measured", () => {
    const a = key(Q.send, { sessionId: "s-1", content: "Hvad er klagefristen?" });
    const b = key(Q.send, { sessionId: "s-2", content: "Hvornår holder I ferie?" });
    expect(a).not.toBeNull();
    expect(b).toBe(a);
  });

  it("should key by the values that are not text (a limit, an @include flag), and refuse to key a value that does not fit", () => {
    const base = key(logs, { limit: 10, search: "login", all: true });
    expect(key(logs, { limit: 10, search: "logout", all: true })).toBe(base);
    expect(key(logs, { limit: 200, search: "login", all: true })).not.toBe(base);
    expect(key(logs, { limit: 10, search: "login", all: false })).not.toBe(base);
    expect(key(logs, { limit: "ti", search: "login", all: true })).toBeNull();
    expect(key(Q.send, { sessionId: "s-1", content: 42 })).toBeNull();
  });

  it("should still refuse what it refused before, after accepting the same document with other text", async () => {
    const plugin = complexityPlugin(schema, 5);
    const listener = await plugin.requestDidStart?.({} as never);
    const document = parse(
      `query Q($search: String) { activityLogs(search: $search) { ${aliases(6, "id")} } }`,
    );
    const run = (variables: Record<string, unknown>) =>
      listener?.didResolveOperation?.({
        request: { variables, operationName: undefined },
        document,
        operation: operationOf(document),
      } as never);
    const small = parse(`query Q($search: String) { activityLogs(search: $search) { id } }`);
    const runSmall = (variables: Record<string, unknown>) =>
      listener?.didResolveOperation?.({
        request: { variables, operationName: undefined },
        document: small,
        operation: operationOf(small),
      } as never);
    await expect(runSmall({ search: "a" })).resolves.toBeUndefined();
    await expect(runSmall({ search: "b" })).resolves.toBeUndefined();
    await expect(run({ search: "a" })).rejects.toThrow();
    await expect(run({ search: "b" })).rejects.toThrow();
    // a value that does not fit its type: the same refusal as without the remembered verdict
    await expect(runSmall({ search: 7 })).rejects.toThrow(
      complexityError(schema, small, undefined, { search: 7 })?.message,
    );
  });
});
