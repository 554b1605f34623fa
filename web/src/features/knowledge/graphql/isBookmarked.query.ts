import { graphql } from "../../../gql";

export const IsBookmarkedQuery = graphql(`
  query IsBookmarked($articleId: ID!) {
    isBookmarked(articleId: $articleId)
  }
`);
