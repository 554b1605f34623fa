import { graphql } from "../../../gql";

export const MeQuery = graphql(`
  query Me {
    me {
      id
      name
      email
      username
      role
      isAdmin
      createdAt
      lastLogin
    }
  }
`);
