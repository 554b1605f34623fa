import { graphql } from "../../../gql";

export const NotionStatusQuery = graphql(`
  query NotionStatus {
    notionStatus {
      ...NotionStatusFields
    }
  }
`);
