import { graphql } from "../../../gql";

export const NotionSyncQuery = graphql(`
  query NotionSync {
    notionSync {
      ...NotionSyncRunFields
    }
  }
`);
