import { graphql } from "../../../gql";

export const ConnectNotionMutation = graphql(`
  mutation ConnectNotion($token: String!) {
    connectNotion(token: $token) {
      ...NotionStatusFields
    }
  }
`);
