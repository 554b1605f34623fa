/**
 * The limits on one GraphQL request, checked before anything runs (except the response size, counted while it is
 * made). Every limit refuses with a Danish message (and its catalogue key); the code is BAD_USER_INPUT except RESPONSE_TOO_LARGE.
 */
import { formatMessage, type MessageKey, type MessageParams } from "@vidensbank/shared";
import {
  type ASTVisitor,
  type DocumentNode,
  type FragmentDefinitionNode,
  GraphQLError,
  type GraphQLErrorOptions,
  Kind,
  type ParseOptions,
  type SelectionSetNode,
  type ValidationContext,
} from "graphql";

export const MAX_DEPTH = 10;
/** each field selected costs 1, counted through fragments (graphql-query-complexity's simple estimate) */
export const MAX_COMPLEXITY = 1000;
/**
 * Selections (fields, fragment spreads, inline fragments) once every fragment spread is expanded. Counted in
 * linear time before the cost estimate runs, so a document whose fragments spread each other many times (a
 * ~1 KB "fragment bomb" expands to millions) is refused before anything walks the expansion.
 */
export const MAX_SELECTIONS = 5_000;
/** Lexical tokens in one document: parsing (and so validation) of a 1 MB body stays bounded. */
export const MAX_TOKENS = 5_000;
/**
 * The estimated size of the answer: each field costs 1, a list field its items' cost times the number of items
 * it can return (its limit argument, else its assumed size: see list-sizes.ts).
 */
export const MAX_RESULT_COST = 100_000;
/** The answer to one request over HTTP; a larger one is refused with RESPONSE_TOO_LARGE (400). */
export const MAX_RESPONSE_BYTES = 8 * 1024 * 1024;

/** For graphql's parse (Apollo's parseOptions, and any other place that parses a request). */
export const PARSE_OPTIONS: ParseOptions = { maxTokens: MAX_TOKENS };

/**
 * A refusal of ours as a GraphQLError: the Danish text of `key` as its message, the key and parameters in
 * extensions (messageKey, messageParams) so a client can show it in its own language. Code BAD_USER_INPUT.
 */
export function limitError(
  key: MessageKey,
  params: MessageParams,
  options: { nodes?: GraphQLErrorOptions["nodes"]; extensions?: Record<string, unknown> } = {},
): GraphQLError {
  return new GraphQLError(formatMessage(key, params), {
    nodes: options.nodes,
    extensions: { code: "BAD_USER_INPUT", ...options.extensions, messageKey: key, messageParams: params },
  });
}

interface Shape {
  /** deepest field nesting (introspection fields not counted) */
  depth: number;
  /** selections once every fragment spread is expanded */
  selections: number;
}

/**
 * Measures selection sets of one document, each named fragment once (memoised): the cost is linear in the
 * document's size however often fragments spread each other. A fragment spread inside itself counts as empty
 * (graphql's NoFragmentCycles rule refuses such documents).
 */
export class DocumentShape {
  private readonly fragments = new Map<string, FragmentDefinitionNode>();
  private readonly measured = new Map<string, Shape>();
  private readonly inProgress = new Set<string>();

  constructor(document: DocumentNode) {
    for (const def of document.definitions) {
      if (def.kind === Kind.FRAGMENT_DEFINITION) this.fragments.set(def.name.value, def);
    }
  }

  of(set: SelectionSetNode | undefined): Shape {
    let depth = 0;
    let selections = 0;
    for (const sel of set?.selections ?? []) {
      selections += 1;
      let inner: Shape;
      if (sel.kind === Kind.FIELD) {
        inner = this.of(sel.selectionSet);
        selections += inner.selections;
        if (!sel.name.value.startsWith("__")) depth = Math.max(depth, inner.depth + 1); // introspection meta fields
        continue;
      }
      inner = sel.kind === Kind.INLINE_FRAGMENT ? this.of(sel.selectionSet) : this.fragment(sel.name.value);
      selections += inner.selections;
      depth = Math.max(depth, inner.depth);
    }
    return { depth, selections };
  }

  private fragment(name: string): Shape {
    const known = this.measured.get(name);
    if (known) return known;
    const frag = this.fragments.get(name);
    if (!frag || this.inProgress.has(name)) return { depth: 0, selections: 0 };
    this.inProgress.add(name);
    const shape = this.of(frag.selectionSet);
    this.inProgress.delete(name);
    this.measured.set(name, shape);
    return shape;
  }
}

/** A validation rule refusing operations nested deeper than maxDepth (fragments followed, each measured once). */
export function depthLimitRule(maxDepth: number = MAX_DEPTH) {
  return (context: ValidationContext): ASTVisitor => {
    const shape = new DocumentShape(context.getDocument());
    return {
      OperationDefinition(node) {
        if (shape.of(node.selectionSet).depth > maxDepth) {
          context.reportError(limitError("graphql.depth", { max: maxDepth }, { nodes: [node] }));
        }
      },
    };
  };
}
