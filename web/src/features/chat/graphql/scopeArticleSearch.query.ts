import { graphql } from "../../../gql";

/** Articles for the scope's picker, as the user types. */
export const ScopeArticleSearchQuery = graphql(`
  query ChatScopeArticleSearch($query: String!, $limit: Int) {
    searchKnowledge(query: $query, limit: $limit) {
      hits {
        article {
          id
          title
          category
        }
      }
    }
  }
`);
