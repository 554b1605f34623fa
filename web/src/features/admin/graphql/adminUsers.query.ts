import { graphql } from "../../../gql";

export const AdminUsersQuery = graphql(`
  query AdminUsers($search: String) {
    adminUsers(search: $search) {
      id
      email
      username
      name
      isAdmin
      isActive
      isProtected
      createdAt
      lastLogin
      chatSessionsCount
      bookmarksCount
    }
  }
`);
