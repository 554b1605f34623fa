import { buildSchema, parse, validate } from "graphql";
import { describe, expect, it } from "vitest";
import { depthLimitRule } from "./limits";

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
