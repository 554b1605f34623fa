import { graphql } from "../../../gql";

export const KnowledgeGapsQuery = graphql(`
  query KnowledgeGaps($limit: Int!) {
    knowledgeGaps(limit: $limit) {
      question
      count
      lastAskedAt
      examples
    }
  }
`);
