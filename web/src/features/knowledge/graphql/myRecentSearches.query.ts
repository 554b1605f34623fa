import { graphql } from "../../../gql";

export const MyRecentSearchesQuery = graphql(`
  query MyRecentSearches($limit: Int) {
    myRecentSearches(limit: $limit) {
      id
      query
      timestamp
    }
  }
`);
