import { graphql } from "../../../gql";

export const ResendVerificationMutation = graphql(`
  mutation ResendVerification($email: String!) {
    resendVerification(email: $email) {
      ok
      message
    }
  }
`);
