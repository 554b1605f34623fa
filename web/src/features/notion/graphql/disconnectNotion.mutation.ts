import { graphql } from "../../../gql";

export const DisconnectNotionMutation = graphql(`
  mutation DisconnectNotion {
    disconnectNotion {
      ...NotionStatusFields
    }
  }
`);
