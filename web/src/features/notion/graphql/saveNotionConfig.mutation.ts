import { graphql } from "../../../gql";

export const SaveNotionConfigMutation = graphql(`
  mutation SaveNotionConfig($selectedDatabases: [ID!]!) {
    saveNotionConfig(selectedDatabases: $selectedDatabases) {
      selectedDatabases
      lastUpdated
      totalPages
    }
  }
`);
