import { graphql } from "../../../gql";

export const RegisterMutation = graphql(`
  mutation Register($input: RegisterInput!) {
    register(input: $input) {
      verificationRequired
      message
      token
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
