import { graphql } from "../../../gql";

export const SearchKnowledgeQuery = graphql(`
  query SearchKnowledge($query: String!, $category: String, $limit: Int) {
    searchKnowledge(query: $query, category: $category, limit: $limit) {
      query
      total
      truncated
      corrections {
        from
        to
      }
      hits {
        score
        snippet
        highlights {
          start
          end
        }
        titleHighlights {
          start
          end
        }
        article {
          ...ArticleCardFields
        }
      }
    }
  }
`);
