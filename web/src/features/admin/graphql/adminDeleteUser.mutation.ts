import { graphql } from "../../../gql";

export const AdminDeleteUserMutation = graphql(`
  mutation AdminDeleteUser($id: ID!) {
    adminDeleteUser(id: $id)
  }
`);
