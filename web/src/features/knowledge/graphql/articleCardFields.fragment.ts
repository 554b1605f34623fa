import { graphql } from "../../../gql";

export const ArticleCardFieldsFragment = graphql(`
  fragment ArticleCardFields on KnowledgeArticle {
    id
    title
    content
    category
    subcategory
    tags
    lastUpdated
  }
`);
