import { buildSchema, parse, validate } from "graphql";
import { describe, expect, it } from "vitest";
import { DocumentShape, depthLimitRule } from "./limits";

const schema = buildSchema(`
  type Node { id: ID!  child: Node  name: String }
  type Query { node: Node }
`);

function nested(depth: number): string {
  let sel = "id";
  for (let i = 1; i < depth; i++) sel = `child { ${sel} }`;
  return `{ node { ${sel} } }`;
}

const errors = (query: string, max: number) => validate(schema, parse(query), [depthLimitRule(max)]);

describe("depthLimitRule", () => {
  it("should accept queries up to the limit", () => {
    expect(errors(nested(4), 5)).toHaveLength(0);
  });

  it("should refuse a query one level deeper than the limit, in Danish with BAD_USER_INPUT", () => {
    const [e] = errors(nested(6), 5);
    expect(e.message).toBe("Forespørgslen er for dybt indlejret (højst 5 niveauer)");
    expect(e.extensions.code).toBe("BAD_USER_INPUT");
  });

  it("should count depth through named and inline fragments", () => {
    const q = `{ node { ...A } } fragment A on Node { child { ... on Node { child { ...B } } } } fragment B on Node { child { child { id } } }`;
    expect(errors(q, 5)).toHaveLength(1);
    expect(errors(q, 6)).toHaveLength(0);
  });

  it("should not loop on cyclic fragments (graphql reports the cycle itself)", () => {
    const q = `{ node { ...A } } fragment A on Node { child { ...A } }`;
    expect(() => errors(q, 5)).not.toThrow();
  });
});

/** Fragments F1..Fn, each spreading the one below `fanout` times: the expansion has fanout^n leaves. */
function fragmentBomb(levels: number, opts: { fanout?: number; wrap?: "field" | "inline" } = {}): string {
  const fanout = opts.fanout ?? 2;
  const frags = ["fragment F0 on Node { id }"];
  for (let i = 1; i <= levels; i++) {
    const spreads = Array(fanout)
      .fill(`...F${i - 1}`)
      .join(" ");
    const body =
      opts.wrap === "field"
        ? `child { ${spreads} }`
        : opts.wrap === "inline"
          ? `... on Node { ${spreads} }`
          : spreads;
    frags.push(`fragment F${i} on Node { ${body} }`);
  }
  return `{ node { ...F${levels} } } ${frags.join(" ")}`;
}

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

describe("depthLimitRule on fragments that spread each other (each fragment measured once)", () => {
  it.each([
    ["fanout 2, 18 levels", fragmentBomb(18)],
    ["fanout 3, 12 levels", fragmentBomb(12, { fanout: 3 })],
    ["spreads inside inline fragments", fragmentBomb(18, { wrap: "inline" })],
    [
      "a bomb spread from many fields",
      fragmentBomb(18).replace("{ node {", "{ a: node { ...F18 } b: node {"),
    ],
  ])("should measure %s in linear time", (_name, query) => {
    const doc = parse(query);
    const { value, ms } = timed(() => validate(schema, doc, [depthLimitRule(5)]));
    expect(value).toHaveLength(0); // every path is 2 levels deep
    expect(ms).toBeLessThan(10);
  });

  it("should still find the deepest path through a bomb that nests a field per level", () => {
    const query = fragmentBomb(16, { wrap: "field" }); // node + 16 × child + id = 18 levels
    const { value, ms } = timed(() => errors(query, 17));
    expect(value[0]?.message).toBe("Forespørgslen er for dybt indlejret (højst 17 niveauer)");
    expect(ms).toBeLessThan(10);
    expect(errors(query, 18)).toHaveLength(0);
  });

  it("should measure a fragment spread in a cycle as empty and go on (NoFragmentCycles refuses it)", () => {
    const q = `{ node { ...A } } fragment A on Node { child { ...B } } fragment B on Node { child { ...A id } }`;
    expect(errors(q, 4)).toHaveLength(0); // node › child › child › id
    expect(errors(q, 3)).toHaveLength(1);
  });
});

describe("DocumentShape", () => {
  it("should count the selections of the expanded document without expanding it", () => {
    const doc = parse(fragmentBomb(30));
    const op = doc.definitions[0];
    if (op.kind !== "OperationDefinition") throw new Error("no operation");
    const { value, ms } = timed(() => new DocumentShape(doc).of(op.selectionSet));
    // node, its spread, then per level 2 spreads of the level below: F0 is 1 selection
    expect(value.selections).toBe(2 + 2 ** 31 - 2 + 2 ** 30);
    expect(ms).toBeLessThan(5);
  });
});
