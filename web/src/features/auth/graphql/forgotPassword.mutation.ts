import { graphql } from "../../../gql";

export const ForgotPasswordMutation = graphql(`
  mutation ForgotPassword($email: String!) {
    forgotPassword(email: $email) {
      ok
      message
    }
  }
`);
