import { graphql } from "../../../gql";

export const KnowledgeCategoriesQuery = graphql(`
  query KnowledgeCategories {
    knowledgeCategories {
      name
      count
      icon
      color
      description
      descriptionKey
    }
  }
`);
