import { graphql } from "../../../gql";

export const ActivityPageQuery = graphql(`
  query ActivityPage($action: String, $time: String, $search: String, $offset: Int!, $limit: Int!) {
    activityPage(action: $action, time: $time, search: $search, offset: $offset, limit: $limit) {
      entries {
        ...ActivityEntryFields
      }
      total
      hasMore
    }
  }
`);
