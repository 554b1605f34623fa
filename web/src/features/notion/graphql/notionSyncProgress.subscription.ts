import { graphql } from "../../../gql";

export const NotionSyncProgressSubscription = graphql(`
  subscription NotionSyncProgress {
    notionSyncProgress {
      ...NotionSyncRunFields
    }
  }
`);
