import { graphql } from "../../../gql";

export const KnowledgeArticleQuery = graphql(`
  query KnowledgeArticle($id: ID!) {
    knowledgeArticle(id: $id) {
      ...ArticleCardFields
      createdAt
      updatedAt
      source {
        kind
        url
        databaseTitle
      }
    }
  }
`);
