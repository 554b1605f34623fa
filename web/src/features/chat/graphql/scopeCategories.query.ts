import { graphql } from "../../../gql";

/** The categories a question can be limited to. */
export const ScopeCategoriesQuery = graphql(`
  query ChatScopeCategories {
    knowledgeCategories {
      name
      count
    }
  }
`);
