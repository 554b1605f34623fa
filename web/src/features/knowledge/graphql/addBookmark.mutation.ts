import { graphql } from "../../../gql";

export const AddBookmarkMutation = graphql(`
  mutation AddBookmark($articleId: ID!) {
    addBookmark(articleId: $articleId) {
      created
      bookmark {
        id
        articleId
      }
    }
  }
`);
