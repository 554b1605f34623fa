/**
 * The cost limits, over HTTP (Apollo plugin) and graphql-ws (complexityError): first the expanded size of the
 * document (linear, fragments measured once), then one graphql-query-complexity pass giving both the complexity
 * (fields selected) and the estimated result cost (list fields times the items they can return).
 */
import type { ApolloServerPlugin } from "@apollo/server";
import type { MessageKey } from "@vidensbank/shared";
import {
  type DocumentNode,
  GraphQLError,
  type GraphQLSchema,
  getNullableType,
  getVariableValues,
  isListType,
  Kind,
  type OperationDefinitionNode,
  type TypeNode,
} from "graphql";
import { type ComplexityEstimator, getComplexity } from "graphql-query-complexity";
import { DocumentShape, limitError, MAX_COMPLEXITY, MAX_RESULT_COST, MAX_SELECTIONS } from "./limits";
import { listSize } from "./list-sizes";

export interface CostLimits {
  maxSelections: number;
  maxResultCost: number;
}

const refuse = (key: MessageKey, max: number) =>
  limitError(key, { max }, { extensions: { http: { status: 400 } } });

/**
 * Each field costs 1 plus its children; a list field costs 1 plus its items' cost (at least 1 each) times the
 * number of items it can return. `fields` counts the calls: one per field evaluated, which is the simple
 * complexity (graphql-query-complexity's simpleEstimator) without a second pass.
 */
function resultCostEstimator(counter: { fields: number }): ComplexityEstimator {
  return ({ type, field, args, childComplexity }) => {
    counter.fields += 1;
    if (!isListType(getNullableType(field.type))) return 1 + childComplexity;
    return 1 + Math.max(childComplexity, 1) * listSize(type.name, field.name, args);
  };
}

/** The operations graphql-query-complexity will walk: the named one, or all when no name is given. */
function operationsOf(document: DocumentNode, operationName: string | null | undefined) {
  return document.definitions.filter(
    (d): d is OperationDefinitionNode =>
      d.kind === Kind.OPERATION_DEFINITION && (!operationName || d.name?.value === operationName),
  );
}

/** The error refusing an operation (too large, too complex, or variables that do not fit their types), or null. */
export function complexityError(
  schema: GraphQLSchema,
  document: DocumentNode,
  operationName: string | null | undefined,
  variables: Record<string, unknown> | null | undefined,
  max: number = MAX_COMPLEXITY,
  limits: Partial<CostLimits> = {},
): GraphQLError | null {
  const maxSelections = limits.maxSelections ?? MAX_SELECTIONS;
  const maxResultCost = limits.maxResultCost ?? MAX_RESULT_COST;
  const shape = new DocumentShape(document);
  let selections = 0;
  for (const op of operationsOf(document, operationName)) selections += shape.of(op.selectionSet).selections;
  if (selections > maxSelections) return refuse("graphql.selections", maxSelections);

  const counter = { fields: 0 };
  let resultCost: number;
  try {
    resultCost = getComplexity({
      schema,
      query: document,
      operationName: operationName ?? undefined,
      variables: variables ?? {},
      estimators: [resultCostEstimator(counter)],
      // never reached after the check above; the library's own guard against unbounded walks
      maxQueryNodes: maxSelections + 1,
    });
  } catch (e) {
    // variables that do not fit their types: the same answer graphql's own coercion would give
    return limitError(
      "graphql.invalidInput",
      { detail: (e as Error).message },
      { extensions: { http: { status: 400 } } },
    );
  }
  if (counter.fields > max) return refuse("graphql.complexity", max);
  if (resultCost > maxResultCost) return refuse("graphql.resultCost", maxResultCost);
  return null;
}

/** Per document, at most this many (operation, variables) pairs are remembered as within the limits. */
export const ACCEPTED_PER_DOCUMENT = 32;
/** Variables longer than this (as JSON) are checked every time, not remembered. */
const ACCEPTED_KEY_MAX = 1_024;

/** A String or ID variable (or a list of them): its value changes no list size and no @skip/@include. */
function isTextType(type: TypeNode): boolean {
  if (type.kind === Kind.NON_NULL_TYPE || type.kind === Kind.LIST_TYPE) return isTextType(type.type);
  return type.name.value === "String" || type.name.value === "ID";
}

/**
 * What the verdict on an operation of a document depends on: the operation and the values of its variables
 * that are not text (a list's `limit`, an @include flag, an input object), provided every variable's value
 * fits its type; null when one does not (the full check then gives the same error as always). Text and ids —
 * a question, a session id — change nothing the limits measure, so a sendMessage is walked once per document,
 * not once per question.
 */
export function verdictKey(
  schema: GraphQLSchema,
  operation: OperationDefinitionNode,
  operationName: string | null | undefined,
  variables: Record<string, unknown>,
): string | null {
  const definitions = operation.variableDefinitions ?? [];
  if (getVariableValues(schema, definitions, variables, { maxErrors: 1 }).errors) return null;
  const counted: Record<string, unknown> = {};
  for (const d of definitions) {
    const name = d.variable.name.value;
    if (!isTextType(d.type) && name in variables) counted[name] = variables[name];
  }
  return `${operationName ?? ""}\u0000${JSON.stringify(counted)}`;
}

/**
 * The HTTP side: Apollo hands every request with the same query text the same parsed DocumentNode (its document
 * cache), and the verdict depends only on the document, the operation and its variables that are not text
 * (verdictKey), so a pair found within the limits is remembered on the document (a WeakMap: forgotten with it)
 * and not walked again. The walk cost about as much CPU as the rest of a small query's execution. Refusals are
 * not remembered (each gets a fresh error).
 */
export function complexityPlugin(schema: GraphQLSchema, max: number = MAX_COMPLEXITY): ApolloServerPlugin {
  const accepted = new WeakMap<DocumentNode, Set<string>>();
  return {
    async requestDidStart() {
      return {
        async didResolveOperation({ request, document, operation }) {
          const variables = request.variables ?? {};
          // no operation: an unknown operation name, refused by the full check as before
          const key = operation ? verdictKey(schema, operation, request.operationName, variables) : null;
          const known = accepted.get(document);
          if (key !== null && known?.has(key)) return;
          const error = complexityError(schema, document, request.operationName, variables, max);
          if (error) throw error;
          if (key === null || key.length > ACCEPTED_KEY_MAX) return;
          const set = known ?? new Set<string>();
          if (set.size >= ACCEPTED_PER_DOCUMENT) set.clear();
          set.add(key);
          if (!known) accepted.set(document, set);
        },
      };
    },
  };
}
