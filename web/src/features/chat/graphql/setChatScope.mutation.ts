import { graphql } from "../../../gql";

export const SetChatScopeMutation = graphql(`
  mutation SetChatScope($sessionId: ID!, $scope: ChatScopeInput!) {
    setChatScope(sessionId: $sessionId, scope: $scope) {
      id
      scope {
        ...ChatScopeFields
      }
    }
  }
`);
