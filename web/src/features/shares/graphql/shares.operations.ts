import { graphql } from "../../../gql";

export const ChatShareFieldsFragment = graphql(`
  fragment ChatShareFields on ChatShare {
    id
    sessionId
    title
    createdAt
    url
  }
`);

export const ChatSharesQuery = graphql(`
  query ChatShares {
    chatShares {
      ...ChatShareFields
    }
  }
`);

export const ShareChatSessionMutation = graphql(`
  mutation ShareChatSession($sessionId: ID!) {
    shareChatSession(sessionId: $sessionId) {
      ...ChatShareFields
    }
  }
`);

export const RevokeChatShareMutation = graphql(`
  mutation RevokeChatShare($shareId: ID!) {
    revokeChatShare(shareId: $shareId)
  }
`);

/** The read-only page: the snapshot's messages with the chat's own message fields (citations included). */
export const SharedChatQuery = graphql(`
  query SharedChat($shareId: ID!) {
    sharedChat(shareId: $shareId) {
      id
      title
      untitled
      ownerName
      sharedAt
      messages {
        ...ChatMessageFields
      }
    }
  }
`);
