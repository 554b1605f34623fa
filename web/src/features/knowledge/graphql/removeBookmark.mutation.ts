import { graphql } from "../../../gql";

export const RemoveBookmarkMutation = graphql(`
  mutation RemoveBookmark($articleId: ID!) {
    removeBookmark(articleId: $articleId)
  }
`);
