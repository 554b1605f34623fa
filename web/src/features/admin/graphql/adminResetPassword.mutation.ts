import { graphql } from "../../../gql";

export const AdminResetPasswordMutation = graphql(`
  mutation AdminResetPassword($userId: ID!, $newPassword: String!) {
    adminResetPassword(userId: $userId, newPassword: $newPassword)
  }
`);
