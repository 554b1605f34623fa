import { graphql } from "../../../gql";

export const LoginMutation = graphql(`
  mutation Login($input: LoginInput!) {
    login(input: $input) {
      token
      message
      user {
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
  }
`);
