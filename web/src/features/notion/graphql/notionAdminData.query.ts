import { graphql } from "../../../gql";

/** The configuration panel's data in one round trip: the workspace's databases and the saved choice. */
export const NotionAdminDataQuery = graphql(`
  query NotionAdminData {
    notionDatabases {
      id
      title
      icon
      pageCount
      lastEditedTime
      properties {
        name
        type
      }
      score
      recommended
      selected
    }
    notionConfig {
      selectedDatabases
      lastUpdated
      totalPages
    }
  }
`);
