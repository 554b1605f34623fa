import { graphql } from "../../../gql";

/** Everything the chat screen shows of a message. */
export const ChatMessageFieldsFragment = graphql(`
  fragment ChatMessageFields on ChatMessage {
    id
    sessionId
    role
    content
    timestamp
    status
    replyTo
    mode
    knowledgeGap
    usedNumbers
    citations {
      number
      articleId
      title
      headingPath
      heading
    }
    freshnessWarnings {
      number
      articleId
      title
      updatedAt
      message
    }
    error {
      code
      message
      retryable
    }
    feedback {
      rating
      comment
    }
    parentId
    followUps
    scope {
      ...ChatScopeFields
    }
  }
`);

/** A message's place among the alternatives ("2 / 3"); not in live events (they do not know it). */
export const ChatMessageBranchFieldsFragment = graphql(`
  fragment ChatMessageBranchFields on ChatMessage {
    siblingIndex
    siblingCount
    siblingIds
  }
`);

export const ChatSessionFieldsFragment = graphql(`
  fragment ChatSessionFields on ChatSession {
    id
    sessionId
    title
    untitled
    createdAt
    lastUpdated
    scope {
      ...ChatScopeFields
    }
  }
`);

export const SessionsQuery = graphql(`
  query ChatSessions {
    sessions {
      ...ChatSessionFields
    }
  }
`);

export const SearchSessionsQuery = graphql(`
  query SearchChatSessions($query: String!) {
    searchSessions(query: $query) {
      ...ChatSessionFields
    }
  }
`);

export const MessagesQuery = graphql(`
  query ChatMessages($sessionId: ID!, $before: ID, $limit: Int) {
    messages(sessionId: $sessionId, before: $before, limit: $limit) {
      ...ChatMessageFields
      ...ChatMessageBranchFields
    }
  }
`);

export const ExportSessionQuery = graphql(`
  query ExportChatSession($sessionId: ID!) {
    exportSession(sessionId: $sessionId)
  }
`);

export const CreateSessionMutation = graphql(`
  mutation CreateChatSession($title: String) {
    createSession(title: $title) {
      ...ChatSessionFields
    }
  }
`);

export const RenameSessionMutation = graphql(`
  mutation RenameChatSession($sessionId: ID!, $title: String!) {
    renameSession(sessionId: $sessionId, title: $title) {
      ...ChatSessionFields
    }
  }
`);

export const DeleteSessionMutation = graphql(`
  mutation DeleteChatSession($sessionId: ID!) {
    deleteSession(sessionId: $sessionId)
  }
`);

export const SendMessageMutation = graphql(`
  mutation SendChatMessage($sessionId: ID!, $content: String!, $scope: ChatScopeInput) {
    sendMessage(sessionId: $sessionId, content: $content, scope: $scope) {
      session {
        ...ChatSessionFields
      }
      userMessage {
        ...ChatMessageFields
      }
      assistantMessage {
        ...ChatMessageFields
      }
    }
  }
`);

export const StopMessageMutation = graphql(`
  mutation StopChatMessage($messageId: ID!) {
    stopMessage(messageId: $messageId) {
      ...ChatMessageFields
    }
  }
`);

export const RetryMessageMutation = graphql(`
  mutation RetryChatMessage($messageId: ID!) {
    retryMessage(messageId: $messageId) {
      ...ChatMessageFields
    }
  }
`);

export const SetFeedbackMutation = graphql(`
  mutation SetChatFeedback($messageId: ID!, $rating: FeedbackRating!, $comment: String) {
    setFeedback(messageId: $messageId, rating: $rating, comment: $comment) {
      ...ChatMessageFields
    }
  }
`);

export const EditMessageMutation = graphql(`
  mutation EditChatMessage($messageId: ID!, $content: String!) {
    editMessage(messageId: $messageId, content: $content) {
      userMessage {
        ...ChatMessageFields
        ...ChatMessageBranchFields
      }
      assistantMessage {
        ...ChatMessageFields
        ...ChatMessageBranchFields
      }
    }
  }
`);

export const RegenerateMessageMutation = graphql(`
  mutation RegenerateChatMessage($messageId: ID!) {
    regenerateMessage(messageId: $messageId) {
      ...ChatMessageFields
      ...ChatMessageBranchFields
    }
  }
`);

export const SwitchBranchMutation = graphql(`
  mutation SwitchChatBranch($messageId: ID!) {
    switchBranch(messageId: $messageId) {
      ...ChatMessageFields
      ...ChatMessageBranchFields
    }
  }
`);

export const ChatMessageEventsSubscription = graphql(`
  subscription ChatMessageEvents($sessionId: ID!) {
    chatMessageEvents(sessionId: $sessionId) {
      type
      sessionId
      messageId
      delta
      questionParentId
      title
      message {
        ...ChatMessageFields
      }
    }
  }
`);
