import { graphql } from "../../../gql";

export const NotionStatusFieldsFragment = graphql(`
  fragment NotionStatusFields on NotionStatus {
    connected
    via
    workspace {
      id
      name
    }
  }
`);
