/** Query depth and complexity limits. */
import {
  type ASTVisitor,
  type FragmentDefinitionNode,
  GraphQLError,
  Kind,
  type SelectionSetNode,
  type ValidationContext,
} from "graphql";

export const MAX_DEPTH = 10;
export const MAX_COMPLEXITY = 1000;

export const limitMessages = {
  depth: (max: number) => `Forespørgslen er for dybt indlejret (højst ${max} niveauer)`,
  complexity: (max: number) => `Forespørgslen er for kompleks (højst ${max})`,
} as const;

/** A validation rule refusing operations nested deeper than maxDepth (fragments followed; cycles stop). */
export function depthLimitRule(maxDepth: number = MAX_DEPTH) {
  return (context: ValidationContext): ASTVisitor => {
    const fragments = new Map<string, FragmentDefinitionNode>();
    for (const def of context.getDocument().definitions) {
      if (def.kind === Kind.FRAGMENT_DEFINITION) fragments.set(def.name.value, def);
    }
    const depthOf = (set: SelectionSetNode | undefined, depth: number, seen: Set<string>): number => {
      if (!set) return depth;
      let max = depth;
      for (const sel of set.selections) {
        if (sel.kind === Kind.FIELD) {
          if (sel.name.value.startsWith("__")) continue; // introspection meta fields
          max = Math.max(max, sel.selectionSet ? depthOf(sel.selectionSet, depth + 1, seen) : depth + 1);
        } else if (sel.kind === Kind.INLINE_FRAGMENT) {
          max = Math.max(max, depthOf(sel.selectionSet, depth, seen));
        } else {
          const name = sel.name.value;
          const frag = fragments.get(name);
          if (frag && !seen.has(name))
            max = Math.max(max, depthOf(frag.selectionSet, depth, new Set([...seen, name])));
        }
        if (max > maxDepth) return max;
      }
      return max;
    };
    return {
      OperationDefinition(node) {
        const depth = depthOf(node.selectionSet, 0, new Set());
        if (depth > maxDepth) {
          context.reportError(
            new GraphQLError(limitMessages.depth(maxDepth), {
              nodes: [node],
              extensions: { code: "BAD_USER_INPUT" },
            }),
          );
        }
      },
    };
  };
}
