import { graphql } from "../../../gql";

export const MyBookmarksQuery = graphql(`
  query MyBookmarks {
    myBookmarks {
      id
      articleId
      articleTitle
      bookmarkedAt
      article {
        ...ArticleCardFields
      }
    }
  }
`);
