import { graphql } from "../../../gql";

export const StartNotionSyncMutation = graphql(`
  mutation StartNotionSync {
    startNotionSync {
      ...NotionSyncRunFields
    }
  }
`);
