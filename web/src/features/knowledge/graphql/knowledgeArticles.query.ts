import { graphql } from "../../../gql";

export const KnowledgeArticlesQuery = graphql(`
  query KnowledgeArticles($category: String) {
    knowledgeArticles(category: $category) {
      ...ArticleCardFields
    }
  }
`);
