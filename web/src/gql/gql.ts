/* eslint-disable */
import * as types from './graphql';
import type { TypedDocumentNode as DocumentNode } from '@graphql-typed-document-node/core';

/**
 * Map of all GraphQL operations in the project.
 *
 * This map has several performance disadvantages:
 * 1. It is not tree-shakeable, so it will include all operations in the project.
 * 2. It is not minifiable, so the string of a GraphQL query will be multiple times inside the bundle.
 * 3. It does not support dead code elimination, so it will add unused operations.
 *
 * Therefore it is highly recommended to use the babel or swc plugin for production.
 * Learn more about it here: https://the-guild.dev/graphql/codegen/plugins/presets/preset-client#reducing-bundle-size
 */
type Documents = {
    "\n  fragment ActivityEntryFields on ActivityLogEntry {\n    id\n    action\n    description\n    messageKey\n    messageParams\n    userEmail\n    timestamp\n    metadata\n  }\n": typeof types.ActivityEntryFieldsFragmentDoc,
    "\n  subscription ActivityLogged {\n    activityLogged {\n      ...ActivityEntryFields\n    }\n  }\n": typeof types.ActivityLoggedDocument,
    "\n  query ActivityPage($action: String, $time: String, $search: String, $offset: Int!, $limit: Int!) {\n    activityPage(action: $action, time: $time, search: $search, offset: $offset, limit: $limit) {\n      entries {\n        ...ActivityEntryFields\n      }\n      total\n      hasMore\n    }\n  }\n": typeof types.ActivityPageDocument,
    "\n  mutation AdminDeleteUser($id: ID!) {\n    adminDeleteUser(id: $id)\n  }\n": typeof types.AdminDeleteUserDocument,
    "\n  mutation AdminResetPassword($userId: ID!, $newPassword: String!) {\n    adminResetPassword(userId: $userId, newPassword: $newPassword)\n  }\n": typeof types.AdminResetPasswordDocument,
    "\n  query AdminStats {\n    adminStats {\n      totalUsers\n      activeUsers\n      totalChatSessions\n      todayMessages\n      totalMessages\n      totalBookmarks\n      weeklyActiveUsers\n      avgSessionDuration\n      topCategories {\n        category\n        count\n      }\n      recentActivity {\n        description\n        messageKey\n        messageParams\n        userEmail\n        timestamp\n      }\n      messagesPerDay {\n        date\n        count\n      }\n      activeUsersPerDay {\n        date\n        count\n      }\n      feedback {\n        up\n        down\n        latestComments {\n          rating\n          comment\n          at\n          userEmail\n        }\n      }\n    }\n  }\n": typeof types.AdminStatsDocument,
    "\n  query AdminUsers($search: String) {\n    adminUsers(search: $search) {\n      id\n      email\n      username\n      name\n      isAdmin\n      isActive\n      isProtected\n      createdAt\n      lastLogin\n      chatSessionsCount\n      bookmarksCount\n    }\n  }\n": typeof types.AdminUsersDocument,
    "\n  query KnowledgeGaps($limit: Int!) {\n    knowledgeGaps(limit: $limit) {\n      question\n      count\n      lastAskedAt\n      examples\n    }\n  }\n": typeof types.KnowledgeGapsDocument,
    "\n  mutation ForgotPassword($email: String!) {\n    forgotPassword(email: $email) {\n      ok\n      message\n    }\n  }\n": typeof types.ForgotPasswordDocument,
    "\n  mutation Login($input: LoginInput!) {\n    login(input: $input) {\n      token\n      message\n      user {\n        id\n        name\n        email\n        username\n        role\n        isAdmin\n        createdAt\n        lastLogin\n      }\n    }\n  }\n": typeof types.LoginDocument,
    "\n  mutation Logout {\n    logout\n  }\n": typeof types.LogoutDocument,
    "\n  query Me {\n    me {\n      id\n      name\n      email\n      username\n      role\n      isAdmin\n      createdAt\n      lastLogin\n    }\n  }\n": typeof types.MeDocument,
    "\n  mutation Register($input: RegisterInput!) {\n    register(input: $input) {\n      verificationRequired\n      message\n      token\n      user {\n        id\n        name\n        email\n        username\n        role\n        isAdmin\n        createdAt\n        lastLogin\n      }\n    }\n  }\n": typeof types.RegisterDocument,
    "\n  mutation ResendVerification($email: String!) {\n    resendVerification(email: $email) {\n      ok\n      message\n    }\n  }\n": typeof types.ResendVerificationDocument,
    "\n  mutation ResetPassword($input: ResetPasswordInput!) {\n    resetPassword(input: $input) {\n      ok\n      message\n    }\n  }\n": typeof types.ResetPasswordDocument,
    "\n  mutation VerifyEmail($token: String!) {\n    verifyEmail(token: $token) {\n      verified\n      message\n    }\n  }\n": typeof types.VerifyEmailDocument,
    "\n  fragment ChatMessageFields on ChatMessage {\n    id\n    sessionId\n    role\n    content\n    timestamp\n    status\n    replyTo\n    mode\n    knowledgeGap\n    usedNumbers\n    citations {\n      number\n      articleId\n      title\n      headingPath\n      heading\n    }\n    freshnessWarnings {\n      number\n      articleId\n      title\n      updatedAt\n      message\n    }\n    error {\n      code\n      message\n      retryable\n    }\n    feedback {\n      rating\n      comment\n    }\n    parentId\n    followUps\n    scope {\n      ...ChatScopeFields\n    }\n  }\n": typeof types.ChatMessageFieldsFragmentDoc,
    "\n  fragment ChatMessageBranchFields on ChatMessage {\n    siblingIndex\n    siblingCount\n    siblingIds\n  }\n": typeof types.ChatMessageBranchFieldsFragmentDoc,
    "\n  fragment ChatSessionFields on ChatSession {\n    id\n    sessionId\n    title\n    untitled\n    createdAt\n    lastUpdated\n    scope {\n      ...ChatScopeFields\n    }\n  }\n": typeof types.ChatSessionFieldsFragmentDoc,
    "\n  query ChatSessions {\n    sessions {\n      ...ChatSessionFields\n    }\n  }\n": typeof types.ChatSessionsDocument,
    "\n  query SearchChatSessions($query: String!) {\n    searchSessions(query: $query) {\n      ...ChatSessionFields\n    }\n  }\n": typeof types.SearchChatSessionsDocument,
    "\n  query ChatMessages($sessionId: ID!, $before: ID, $limit: Int) {\n    messages(sessionId: $sessionId, before: $before, limit: $limit) {\n      ...ChatMessageFields\n      ...ChatMessageBranchFields\n    }\n  }\n": typeof types.ChatMessagesDocument,
    "\n  query ExportChatSession($sessionId: ID!) {\n    exportSession(sessionId: $sessionId)\n  }\n": typeof types.ExportChatSessionDocument,
    "\n  mutation CreateChatSession($title: String) {\n    createSession(title: $title) {\n      ...ChatSessionFields\n    }\n  }\n": typeof types.CreateChatSessionDocument,
    "\n  mutation RenameChatSession($sessionId: ID!, $title: String!) {\n    renameSession(sessionId: $sessionId, title: $title) {\n      ...ChatSessionFields\n    }\n  }\n": typeof types.RenameChatSessionDocument,
    "\n  mutation DeleteChatSession($sessionId: ID!) {\n    deleteSession(sessionId: $sessionId)\n  }\n": typeof types.DeleteChatSessionDocument,
    "\n  mutation SendChatMessage($sessionId: ID!, $content: String!, $scope: ChatScopeInput) {\n    sendMessage(sessionId: $sessionId, content: $content, scope: $scope) {\n      session {\n        ...ChatSessionFields\n      }\n      userMessage {\n        ...ChatMessageFields\n      }\n      assistantMessage {\n        ...ChatMessageFields\n      }\n    }\n  }\n": typeof types.SendChatMessageDocument,
    "\n  mutation StopChatMessage($messageId: ID!) {\n    stopMessage(messageId: $messageId) {\n      ...ChatMessageFields\n    }\n  }\n": typeof types.StopChatMessageDocument,
    "\n  mutation RetryChatMessage($messageId: ID!) {\n    retryMessage(messageId: $messageId) {\n      ...ChatMessageFields\n    }\n  }\n": typeof types.RetryChatMessageDocument,
    "\n  mutation SetChatFeedback($messageId: ID!, $rating: FeedbackRating!, $comment: String) {\n    setFeedback(messageId: $messageId, rating: $rating, comment: $comment) {\n      ...ChatMessageFields\n    }\n  }\n": typeof types.SetChatFeedbackDocument,
    "\n  mutation EditChatMessage($messageId: ID!, $content: String!) {\n    editMessage(messageId: $messageId, content: $content) {\n      userMessage {\n        ...ChatMessageFields\n        ...ChatMessageBranchFields\n      }\n      assistantMessage {\n        ...ChatMessageFields\n        ...ChatMessageBranchFields\n      }\n    }\n  }\n": typeof types.EditChatMessageDocument,
    "\n  mutation RegenerateChatMessage($messageId: ID!) {\n    regenerateMessage(messageId: $messageId) {\n      ...ChatMessageFields\n      ...ChatMessageBranchFields\n    }\n  }\n": typeof types.RegenerateChatMessageDocument,
    "\n  mutation SwitchChatBranch($messageId: ID!) {\n    switchBranch(messageId: $messageId) {\n      ...ChatMessageFields\n      ...ChatMessageBranchFields\n    }\n  }\n": typeof types.SwitchChatBranchDocument,
    "\n  subscription ChatMessageEvents($sessionId: ID!) {\n    chatMessageEvents(sessionId: $sessionId) {\n      type\n      sessionId\n      messageId\n      delta\n      questionParentId\n      title\n      message {\n        ...ChatMessageFields\n      }\n    }\n  }\n": typeof types.ChatMessageEventsDocument,
    "\n  fragment ChatScopeFields on ChatScope {\n    kind\n    category\n    articles {\n      id\n      title\n    }\n    label\n  }\n": typeof types.ChatScopeFieldsFragmentDoc,
    "\n  query ChatScopeArticleSearch($query: String!, $limit: Int) {\n    searchKnowledge(query: $query, limit: $limit) {\n      hits {\n        article {\n          id\n          title\n          category\n        }\n      }\n    }\n  }\n": typeof types.ChatScopeArticleSearchDocument,
    "\n  query ChatScopeCategories {\n    knowledgeCategories {\n      name\n      count\n    }\n  }\n": typeof types.ChatScopeCategoriesDocument,
    "\n  mutation SetChatScope($sessionId: ID!, $scope: ChatScopeInput!) {\n    setChatScope(sessionId: $sessionId, scope: $scope) {\n      id\n      scope {\n        ...ChatScopeFields\n      }\n    }\n  }\n": typeof types.SetChatScopeDocument,
    "\n  query Environment {\n    environment {\n      environment\n      hostname\n      nodeEnv\n      replOwner\n    }\n  }\n": typeof types.EnvironmentDocument,
    "\n  mutation AddBookmark($articleId: ID!) {\n    addBookmark(articleId: $articleId) {\n      created\n      bookmark {\n        id\n        articleId\n      }\n    }\n  }\n": typeof types.AddBookmarkDocument,
    "\n  fragment ArticleCardFields on KnowledgeArticle {\n    id\n    title\n    content\n    category\n    subcategory\n    tags\n    lastUpdated\n  }\n": typeof types.ArticleCardFieldsFragmentDoc,
    "\n  query IsBookmarked($articleId: ID!) {\n    isBookmarked(articleId: $articleId)\n  }\n": typeof types.IsBookmarkedDocument,
    "\n  query KnowledgeArticle($id: ID!) {\n    knowledgeArticle(id: $id) {\n      ...ArticleCardFields\n      createdAt\n      updatedAt\n      source {\n        kind\n        url\n        databaseTitle\n      }\n    }\n  }\n": typeof types.KnowledgeArticleDocument,
    "\n  query KnowledgeArticles($category: String) {\n    knowledgeArticles(category: $category) {\n      ...ArticleCardFields\n    }\n  }\n": typeof types.KnowledgeArticlesDocument,
    "\n  query KnowledgeCategories {\n    knowledgeCategories {\n      name\n      count\n      icon\n      color\n      description\n      descriptionKey\n    }\n  }\n": typeof types.KnowledgeCategoriesDocument,
    "\n  query MyBookmarks {\n    myBookmarks {\n      id\n      articleId\n      articleTitle\n      bookmarkedAt\n      article {\n        ...ArticleCardFields\n      }\n    }\n  }\n": typeof types.MyBookmarksDocument,
    "\n  query MyRecentSearches($limit: Int) {\n    myRecentSearches(limit: $limit) {\n      id\n      query\n      timestamp\n    }\n  }\n": typeof types.MyRecentSearchesDocument,
    "\n  mutation RemoveBookmark($articleId: ID!) {\n    removeBookmark(articleId: $articleId)\n  }\n": typeof types.RemoveBookmarkDocument,
    "\n  query SearchKnowledge($query: String!, $category: String, $limit: Int) {\n    searchKnowledge(query: $query, category: $category, limit: $limit) {\n      query\n      total\n      truncated\n      corrections {\n        from\n        to\n      }\n      hits {\n        score\n        snippet\n        highlights {\n          start\n          end\n        }\n        titleHighlights {\n          start\n          end\n        }\n        article {\n          ...ArticleCardFields\n        }\n      }\n    }\n  }\n": typeof types.SearchKnowledgeDocument,
    "\n  mutation ConnectNotion($token: String!) {\n    connectNotion(token: $token) {\n      ...NotionStatusFields\n    }\n  }\n": typeof types.ConnectNotionDocument,
    "\n  mutation DisconnectNotion {\n    disconnectNotion {\n      ...NotionStatusFields\n    }\n  }\n": typeof types.DisconnectNotionDocument,
    "\n  query NotionAdminData {\n    notionDatabases {\n      id\n      title\n      icon\n      pageCount\n      lastEditedTime\n      properties {\n        name\n        type\n      }\n      score\n      recommended\n      selected\n    }\n    notionConfig {\n      selectedDatabases\n      lastUpdated\n      totalPages\n    }\n  }\n": typeof types.NotionAdminDataDocument,
    "\n  query NotionStatus {\n    notionStatus {\n      ...NotionStatusFields\n    }\n  }\n": typeof types.NotionStatusDocument,
    "\n  fragment NotionStatusFields on NotionStatus {\n    connected\n    via\n    workspace {\n      id\n      name\n    }\n  }\n": typeof types.NotionStatusFieldsFragmentDoc,
    "\n  query NotionSync {\n    notionSync {\n      ...NotionSyncRunFields\n    }\n  }\n": typeof types.NotionSyncDocument,
    "\n  subscription NotionSyncProgress {\n    notionSyncProgress {\n      ...NotionSyncRunFields\n    }\n  }\n": typeof types.NotionSyncProgressDocument,
    "\n  fragment NotionSyncRunFields on NotionSyncRun {\n    id\n    state\n    trigger\n    startedAt\n    finishedAt\n    pagesSeen\n    pagesDone\n    pagesFailed\n    articlesRemoved\n    error\n    errorKey\n    errorParams\n    failures {\n      pageId\n      title\n      url\n      message\n      messageKey\n      messageParams\n    }\n  }\n": typeof types.NotionSyncRunFieldsFragmentDoc,
    "\n  mutation SaveNotionConfig($selectedDatabases: [ID!]!) {\n    saveNotionConfig(selectedDatabases: $selectedDatabases) {\n      selectedDatabases\n      lastUpdated\n      totalPages\n    }\n  }\n": typeof types.SaveNotionConfigDocument,
    "\n  mutation StartNotionSync {\n    startNotionSync {\n      ...NotionSyncRunFields\n    }\n  }\n": typeof types.StartNotionSyncDocument,
    "\n  query MyPreferences {\n    myPreferences {\n      language\n      theme\n      notifications\n      updatedAt\n    }\n  }\n": typeof types.MyPreferencesDocument,
    "\n  subscription PreferencesChanged {\n    preferencesChanged {\n      language\n      theme\n      notifications\n      updatedAt\n    }\n  }\n": typeof types.PreferencesChangedDocument,
    "\n  mutation UpdatePreferences($input: PreferencesInput!) {\n    updatePreferences(input: $input) {\n      language\n      theme\n      notifications\n      updatedAt\n    }\n  }\n": typeof types.UpdatePreferencesDocument,
    "\n  mutation ChangePassword($input: ChangePasswordInput!) {\n    changePassword(input: $input)\n  }\n": typeof types.ChangePasswordDocument,
    "\n  fragment ChatShareFields on ChatShare {\n    id\n    sessionId\n    title\n    createdAt\n    url\n  }\n": typeof types.ChatShareFieldsFragmentDoc,
    "\n  query ChatShares {\n    chatShares {\n      ...ChatShareFields\n    }\n  }\n": typeof types.ChatSharesDocument,
    "\n  mutation ShareChatSession($sessionId: ID!) {\n    shareChatSession(sessionId: $sessionId) {\n      ...ChatShareFields\n    }\n  }\n": typeof types.ShareChatSessionDocument,
    "\n  mutation RevokeChatShare($shareId: ID!) {\n    revokeChatShare(shareId: $shareId)\n  }\n": typeof types.RevokeChatShareDocument,
    "\n  query SharedChat($shareId: ID!) {\n    sharedChat(shareId: $shareId) {\n      id\n      title\n      untitled\n      ownerName\n      sharedAt\n      messages {\n        ...ChatMessageFields\n      }\n    }\n  }\n": typeof types.SharedChatDocument,
};
const documents: Documents = {
    "\n  fragment ActivityEntryFields on ActivityLogEntry {\n    id\n    action\n    description\n    messageKey\n    messageParams\n    userEmail\n    timestamp\n    metadata\n  }\n": types.ActivityEntryFieldsFragmentDoc,
    "\n  subscription ActivityLogged {\n    activityLogged {\n      ...ActivityEntryFields\n    }\n  }\n": types.ActivityLoggedDocument,
    "\n  query ActivityPage($action: String, $time: String, $search: String, $offset: Int!, $limit: Int!) {\n    activityPage(action: $action, time: $time, search: $search, offset: $offset, limit: $limit) {\n      entries {\n        ...ActivityEntryFields\n      }\n      total\n      hasMore\n    }\n  }\n": types.ActivityPageDocument,
    "\n  mutation AdminDeleteUser($id: ID!) {\n    adminDeleteUser(id: $id)\n  }\n": types.AdminDeleteUserDocument,
    "\n  mutation AdminResetPassword($userId: ID!, $newPassword: String!) {\n    adminResetPassword(userId: $userId, newPassword: $newPassword)\n  }\n": types.AdminResetPasswordDocument,
    "\n  query AdminStats {\n    adminStats {\n      totalUsers\n      activeUsers\n      totalChatSessions\n      todayMessages\n      totalMessages\n      totalBookmarks\n      weeklyActiveUsers\n      avgSessionDuration\n      topCategories {\n        category\n        count\n      }\n      recentActivity {\n        description\n        messageKey\n        messageParams\n        userEmail\n        timestamp\n      }\n      messagesPerDay {\n        date\n        count\n      }\n      activeUsersPerDay {\n        date\n        count\n      }\n      feedback {\n        up\n        down\n        latestComments {\n          rating\n          comment\n          at\n          userEmail\n        }\n      }\n    }\n  }\n": types.AdminStatsDocument,
    "\n  query AdminUsers($search: String) {\n    adminUsers(search: $search) {\n      id\n      email\n      username\n      name\n      isAdmin\n      isActive\n      isProtected\n      createdAt\n      lastLogin\n      chatSessionsCount\n      bookmarksCount\n    }\n  }\n": types.AdminUsersDocument,
    "\n  query KnowledgeGaps($limit: Int!) {\n    knowledgeGaps(limit: $limit) {\n      question\n      count\n      lastAskedAt\n      examples\n    }\n  }\n": types.KnowledgeGapsDocument,
    "\n  mutation ForgotPassword($email: String!) {\n    forgotPassword(email: $email) {\n      ok\n      message\n    }\n  }\n": types.ForgotPasswordDocument,
    "\n  mutation Login($input: LoginInput!) {\n    login(input: $input) {\n      token\n      message\n      user {\n        id\n        name\n        email\n        username\n        role\n        isAdmin\n        createdAt\n        lastLogin\n      }\n    }\n  }\n": types.LoginDocument,
    "\n  mutation Logout {\n    logout\n  }\n": types.LogoutDocument,
    "\n  query Me {\n    me {\n      id\n      name\n      email\n      username\n      role\n      isAdmin\n      createdAt\n      lastLogin\n    }\n  }\n": types.MeDocument,
    "\n  mutation Register($input: RegisterInput!) {\n    register(input: $input) {\n      verificationRequired\n      message\n      token\n      user {\n        id\n        name\n        email\n        username\n        role\n        isAdmin\n        createdAt\n        lastLogin\n      }\n    }\n  }\n": types.RegisterDocument,
    "\n  mutation ResendVerification($email: String!) {\n    resendVerification(email: $email) {\n      ok\n      message\n    }\n  }\n": types.ResendVerificationDocument,
    "\n  mutation ResetPassword($input: ResetPasswordInput!) {\n    resetPassword(input: $input) {\n      ok\n      message\n    }\n  }\n": types.ResetPasswordDocument,
    "\n  mutation VerifyEmail($token: String!) {\n    verifyEmail(token: $token) {\n      verified\n      message\n    }\n  }\n": types.VerifyEmailDocument,
    "\n  fragment ChatMessageFields on ChatMessage {\n    id\n    sessionId\n    role\n    content\n    timestamp\n    status\n    replyTo\n    mode\n    knowledgeGap\n    usedNumbers\n    citations {\n      number\n      articleId\n      title\n      headingPath\n      heading\n    }\n    freshnessWarnings {\n      number\n      articleId\n      title\n      updatedAt\n      message\n    }\n    error {\n      code\n      message\n      retryable\n    }\n    feedback {\n      rating\n      comment\n    }\n    parentId\n    followUps\n    scope {\n      ...ChatScopeFields\n    }\n  }\n": types.ChatMessageFieldsFragmentDoc,
    "\n  fragment ChatMessageBranchFields on ChatMessage {\n    siblingIndex\n    siblingCount\n    siblingIds\n  }\n": types.ChatMessageBranchFieldsFragmentDoc,
    "\n  fragment ChatSessionFields on ChatSession {\n    id\n    sessionId\n    title\n    untitled\n    createdAt\n    lastUpdated\n    scope {\n      ...ChatScopeFields\n    }\n  }\n": types.ChatSessionFieldsFragmentDoc,
    "\n  query ChatSessions {\n    sessions {\n      ...ChatSessionFields\n    }\n  }\n": types.ChatSessionsDocument,
    "\n  query SearchChatSessions($query: String!) {\n    searchSessions(query: $query) {\n      ...ChatSessionFields\n    }\n  }\n": types.SearchChatSessionsDocument,
    "\n  query ChatMessages($sessionId: ID!, $before: ID, $limit: Int) {\n    messages(sessionId: $sessionId, before: $before, limit: $limit) {\n      ...ChatMessageFields\n      ...ChatMessageBranchFields\n    }\n  }\n": types.ChatMessagesDocument,
    "\n  query ExportChatSession($sessionId: ID!) {\n    exportSession(sessionId: $sessionId)\n  }\n": types.ExportChatSessionDocument,
    "\n  mutation CreateChatSession($title: String) {\n    createSession(title: $title) {\n      ...ChatSessionFields\n    }\n  }\n": types.CreateChatSessionDocument,
    "\n  mutation RenameChatSession($sessionId: ID!, $title: String!) {\n    renameSession(sessionId: $sessionId, title: $title) {\n      ...ChatSessionFields\n    }\n  }\n": types.RenameChatSessionDocument,
    "\n  mutation DeleteChatSession($sessionId: ID!) {\n    deleteSession(sessionId: $sessionId)\n  }\n": types.DeleteChatSessionDocument,
    "\n  mutation SendChatMessage($sessionId: ID!, $content: String!, $scope: ChatScopeInput) {\n    sendMessage(sessionId: $sessionId, content: $content, scope: $scope) {\n      session {\n        ...ChatSessionFields\n      }\n      userMessage {\n        ...ChatMessageFields\n      }\n      assistantMessage {\n        ...ChatMessageFields\n      }\n    }\n  }\n": types.SendChatMessageDocument,
    "\n  mutation StopChatMessage($messageId: ID!) {\n    stopMessage(messageId: $messageId) {\n      ...ChatMessageFields\n    }\n  }\n": types.StopChatMessageDocument,
    "\n  mutation RetryChatMessage($messageId: ID!) {\n    retryMessage(messageId: $messageId) {\n      ...ChatMessageFields\n    }\n  }\n": types.RetryChatMessageDocument,
    "\n  mutation SetChatFeedback($messageId: ID!, $rating: FeedbackRating!, $comment: String) {\n    setFeedback(messageId: $messageId, rating: $rating, comment: $comment) {\n      ...ChatMessageFields\n    }\n  }\n": types.SetChatFeedbackDocument,
    "\n  mutation EditChatMessage($messageId: ID!, $content: String!) {\n    editMessage(messageId: $messageId, content: $content) {\n      userMessage {\n        ...ChatMessageFields\n        ...ChatMessageBranchFields\n      }\n      assistantMessage {\n        ...ChatMessageFields\n        ...ChatMessageBranchFields\n      }\n    }\n  }\n": types.EditChatMessageDocument,
    "\n  mutation RegenerateChatMessage($messageId: ID!) {\n    regenerateMessage(messageId: $messageId) {\n      ...ChatMessageFields\n      ...ChatMessageBranchFields\n    }\n  }\n": types.RegenerateChatMessageDocument,
    "\n  mutation SwitchChatBranch($messageId: ID!) {\n    switchBranch(messageId: $messageId) {\n      ...ChatMessageFields\n      ...ChatMessageBranchFields\n    }\n  }\n": types.SwitchChatBranchDocument,
    "\n  subscription ChatMessageEvents($sessionId: ID!) {\n    chatMessageEvents(sessionId: $sessionId) {\n      type\n      sessionId\n      messageId\n      delta\n      questionParentId\n      title\n      message {\n        ...ChatMessageFields\n      }\n    }\n  }\n": types.ChatMessageEventsDocument,
    "\n  fragment ChatScopeFields on ChatScope {\n    kind\n    category\n    articles {\n      id\n      title\n    }\n    label\n  }\n": types.ChatScopeFieldsFragmentDoc,
    "\n  query ChatScopeArticleSearch($query: String!, $limit: Int) {\n    searchKnowledge(query: $query, limit: $limit) {\n      hits {\n        article {\n          id\n          title\n          category\n        }\n      }\n    }\n  }\n": types.ChatScopeArticleSearchDocument,
    "\n  query ChatScopeCategories {\n    knowledgeCategories {\n      name\n      count\n    }\n  }\n": types.ChatScopeCategoriesDocument,
    "\n  mutation SetChatScope($sessionId: ID!, $scope: ChatScopeInput!) {\n    setChatScope(sessionId: $sessionId, scope: $scope) {\n      id\n      scope {\n        ...ChatScopeFields\n      }\n    }\n  }\n": types.SetChatScopeDocument,
    "\n  query Environment {\n    environment {\n      environment\n      hostname\n      nodeEnv\n      replOwner\n    }\n  }\n": types.EnvironmentDocument,
    "\n  mutation AddBookmark($articleId: ID!) {\n    addBookmark(articleId: $articleId) {\n      created\n      bookmark {\n        id\n        articleId\n      }\n    }\n  }\n": types.AddBookmarkDocument,
    "\n  fragment ArticleCardFields on KnowledgeArticle {\n    id\n    title\n    content\n    category\n    subcategory\n    tags\n    lastUpdated\n  }\n": types.ArticleCardFieldsFragmentDoc,
    "\n  query IsBookmarked($articleId: ID!) {\n    isBookmarked(articleId: $articleId)\n  }\n": types.IsBookmarkedDocument,
    "\n  query KnowledgeArticle($id: ID!) {\n    knowledgeArticle(id: $id) {\n      ...ArticleCardFields\n      createdAt\n      updatedAt\n      source {\n        kind\n        url\n        databaseTitle\n      }\n    }\n  }\n": types.KnowledgeArticleDocument,
    "\n  query KnowledgeArticles($category: String) {\n    knowledgeArticles(category: $category) {\n      ...ArticleCardFields\n    }\n  }\n": types.KnowledgeArticlesDocument,
    "\n  query KnowledgeCategories {\n    knowledgeCategories {\n      name\n      count\n      icon\n      color\n      description\n      descriptionKey\n    }\n  }\n": types.KnowledgeCategoriesDocument,
    "\n  query MyBookmarks {\n    myBookmarks {\n      id\n      articleId\n      articleTitle\n      bookmarkedAt\n      article {\n        ...ArticleCardFields\n      }\n    }\n  }\n": types.MyBookmarksDocument,
    "\n  query MyRecentSearches($limit: Int) {\n    myRecentSearches(limit: $limit) {\n      id\n      query\n      timestamp\n    }\n  }\n": types.MyRecentSearchesDocument,
    "\n  mutation RemoveBookmark($articleId: ID!) {\n    removeBookmark(articleId: $articleId)\n  }\n": types.RemoveBookmarkDocument,
    "\n  query SearchKnowledge($query: String!, $category: String, $limit: Int) {\n    searchKnowledge(query: $query, category: $category, limit: $limit) {\n      query\n      total\n      truncated\n      corrections {\n        from\n        to\n      }\n      hits {\n        score\n        snippet\n        highlights {\n          start\n          end\n        }\n        titleHighlights {\n          start\n          end\n        }\n        article {\n          ...ArticleCardFields\n        }\n      }\n    }\n  }\n": types.SearchKnowledgeDocument,
    "\n  mutation ConnectNotion($token: String!) {\n    connectNotion(token: $token) {\n      ...NotionStatusFields\n    }\n  }\n": types.ConnectNotionDocument,
    "\n  mutation DisconnectNotion {\n    disconnectNotion {\n      ...NotionStatusFields\n    }\n  }\n": types.DisconnectNotionDocument,
    "\n  query NotionAdminData {\n    notionDatabases {\n      id\n      title\n      icon\n      pageCount\n      lastEditedTime\n      properties {\n        name\n        type\n      }\n      score\n      recommended\n      selected\n    }\n    notionConfig {\n      selectedDatabases\n      lastUpdated\n      totalPages\n    }\n  }\n": types.NotionAdminDataDocument,
    "\n  query NotionStatus {\n    notionStatus {\n      ...NotionStatusFields\n    }\n  }\n": types.NotionStatusDocument,
    "\n  fragment NotionStatusFields on NotionStatus {\n    connected\n    via\n    workspace {\n      id\n      name\n    }\n  }\n": types.NotionStatusFieldsFragmentDoc,
    "\n  query NotionSync {\n    notionSync {\n      ...NotionSyncRunFields\n    }\n  }\n": types.NotionSyncDocument,
    "\n  subscription NotionSyncProgress {\n    notionSyncProgress {\n      ...NotionSyncRunFields\n    }\n  }\n": types.NotionSyncProgressDocument,
    "\n  fragment NotionSyncRunFields on NotionSyncRun {\n    id\n    state\n    trigger\n    startedAt\n    finishedAt\n    pagesSeen\n    pagesDone\n    pagesFailed\n    articlesRemoved\n    error\n    errorKey\n    errorParams\n    failures {\n      pageId\n      title\n      url\n      message\n      messageKey\n      messageParams\n    }\n  }\n": types.NotionSyncRunFieldsFragmentDoc,
    "\n  mutation SaveNotionConfig($selectedDatabases: [ID!]!) {\n    saveNotionConfig(selectedDatabases: $selectedDatabases) {\n      selectedDatabases\n      lastUpdated\n      totalPages\n    }\n  }\n": types.SaveNotionConfigDocument,
    "\n  mutation StartNotionSync {\n    startNotionSync {\n      ...NotionSyncRunFields\n    }\n  }\n": types.StartNotionSyncDocument,
    "\n  query MyPreferences {\n    myPreferences {\n      language\n      theme\n      notifications\n      updatedAt\n    }\n  }\n": types.MyPreferencesDocument,
    "\n  subscription PreferencesChanged {\n    preferencesChanged {\n      language\n      theme\n      notifications\n      updatedAt\n    }\n  }\n": types.PreferencesChangedDocument,
    "\n  mutation UpdatePreferences($input: PreferencesInput!) {\n    updatePreferences(input: $input) {\n      language\n      theme\n      notifications\n      updatedAt\n    }\n  }\n": types.UpdatePreferencesDocument,
    "\n  mutation ChangePassword($input: ChangePasswordInput!) {\n    changePassword(input: $input)\n  }\n": types.ChangePasswordDocument,
    "\n  fragment ChatShareFields on ChatShare {\n    id\n    sessionId\n    title\n    createdAt\n    url\n  }\n": types.ChatShareFieldsFragmentDoc,
    "\n  query ChatShares {\n    chatShares {\n      ...ChatShareFields\n    }\n  }\n": types.ChatSharesDocument,
    "\n  mutation ShareChatSession($sessionId: ID!) {\n    shareChatSession(sessionId: $sessionId) {\n      ...ChatShareFields\n    }\n  }\n": types.ShareChatSessionDocument,
    "\n  mutation RevokeChatShare($shareId: ID!) {\n    revokeChatShare(shareId: $shareId)\n  }\n": types.RevokeChatShareDocument,
    "\n  query SharedChat($shareId: ID!) {\n    sharedChat(shareId: $shareId) {\n      id\n      title\n      untitled\n      ownerName\n      sharedAt\n      messages {\n        ...ChatMessageFields\n      }\n    }\n  }\n": types.SharedChatDocument,
};

/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 *
 *
 * @example
 * ```ts
 * const query = graphql(`query GetUser($id: ID!) { user(id: $id) { name } }`);
 * ```
 *
 * The query argument is unknown!
 * Please regenerate the types.
 */
export function graphql(source: string): unknown;

/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  fragment ActivityEntryFields on ActivityLogEntry {\n    id\n    action\n    description\n    messageKey\n    messageParams\n    userEmail\n    timestamp\n    metadata\n  }\n"): (typeof documents)["\n  fragment ActivityEntryFields on ActivityLogEntry {\n    id\n    action\n    description\n    messageKey\n    messageParams\n    userEmail\n    timestamp\n    metadata\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  subscription ActivityLogged {\n    activityLogged {\n      ...ActivityEntryFields\n    }\n  }\n"): (typeof documents)["\n  subscription ActivityLogged {\n    activityLogged {\n      ...ActivityEntryFields\n    }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  query ActivityPage($action: String, $time: String, $search: String, $offset: Int!, $limit: Int!) {\n    activityPage(action: $action, time: $time, search: $search, offset: $offset, limit: $limit) {\n      entries {\n        ...ActivityEntryFields\n      }\n      total\n      hasMore\n    }\n  }\n"): (typeof documents)["\n  query ActivityPage($action: String, $time: String, $search: String, $offset: Int!, $limit: Int!) {\n    activityPage(action: $action, time: $time, search: $search, offset: $offset, limit: $limit) {\n      entries {\n        ...ActivityEntryFields\n      }\n      total\n      hasMore\n    }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  mutation AdminDeleteUser($id: ID!) {\n    adminDeleteUser(id: $id)\n  }\n"): (typeof documents)["\n  mutation AdminDeleteUser($id: ID!) {\n    adminDeleteUser(id: $id)\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  mutation AdminResetPassword($userId: ID!, $newPassword: String!) {\n    adminResetPassword(userId: $userId, newPassword: $newPassword)\n  }\n"): (typeof documents)["\n  mutation AdminResetPassword($userId: ID!, $newPassword: String!) {\n    adminResetPassword(userId: $userId, newPassword: $newPassword)\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  query AdminStats {\n    adminStats {\n      totalUsers\n      activeUsers\n      totalChatSessions\n      todayMessages\n      totalMessages\n      totalBookmarks\n      weeklyActiveUsers\n      avgSessionDuration\n      topCategories {\n        category\n        count\n      }\n      recentActivity {\n        description\n        messageKey\n        messageParams\n        userEmail\n        timestamp\n      }\n      messagesPerDay {\n        date\n        count\n      }\n      activeUsersPerDay {\n        date\n        count\n      }\n      feedback {\n        up\n        down\n        latestComments {\n          rating\n          comment\n          at\n          userEmail\n        }\n      }\n    }\n  }\n"): (typeof documents)["\n  query AdminStats {\n    adminStats {\n      totalUsers\n      activeUsers\n      totalChatSessions\n      todayMessages\n      totalMessages\n      totalBookmarks\n      weeklyActiveUsers\n      avgSessionDuration\n      topCategories {\n        category\n        count\n      }\n      recentActivity {\n        description\n        messageKey\n        messageParams\n        userEmail\n        timestamp\n      }\n      messagesPerDay {\n        date\n        count\n      }\n      activeUsersPerDay {\n        date\n        count\n      }\n      feedback {\n        up\n        down\n        latestComments {\n          rating\n          comment\n          at\n          userEmail\n        }\n      }\n    }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  query AdminUsers($search: String) {\n    adminUsers(search: $search) {\n      id\n      email\n      username\n      name\n      isAdmin\n      isActive\n      isProtected\n      createdAt\n      lastLogin\n      chatSessionsCount\n      bookmarksCount\n    }\n  }\n"): (typeof documents)["\n  query AdminUsers($search: String) {\n    adminUsers(search: $search) {\n      id\n      email\n      username\n      name\n      isAdmin\n      isActive\n      isProtected\n      createdAt\n      lastLogin\n      chatSessionsCount\n      bookmarksCount\n    }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  query KnowledgeGaps($limit: Int!) {\n    knowledgeGaps(limit: $limit) {\n      question\n      count\n      lastAskedAt\n      examples\n    }\n  }\n"): (typeof documents)["\n  query KnowledgeGaps($limit: Int!) {\n    knowledgeGaps(limit: $limit) {\n      question\n      count\n      lastAskedAt\n      examples\n    }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  mutation ForgotPassword($email: String!) {\n    forgotPassword(email: $email) {\n      ok\n      message\n    }\n  }\n"): (typeof documents)["\n  mutation ForgotPassword($email: String!) {\n    forgotPassword(email: $email) {\n      ok\n      message\n    }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  mutation Login($input: LoginInput!) {\n    login(input: $input) {\n      token\n      message\n      user {\n        id\n        name\n        email\n        username\n        role\n        isAdmin\n        createdAt\n        lastLogin\n      }\n    }\n  }\n"): (typeof documents)["\n  mutation Login($input: LoginInput!) {\n    login(input: $input) {\n      token\n      message\n      user {\n        id\n        name\n        email\n        username\n        role\n        isAdmin\n        createdAt\n        lastLogin\n      }\n    }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  mutation Logout {\n    logout\n  }\n"): (typeof documents)["\n  mutation Logout {\n    logout\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  query Me {\n    me {\n      id\n      name\n      email\n      username\n      role\n      isAdmin\n      createdAt\n      lastLogin\n    }\n  }\n"): (typeof documents)["\n  query Me {\n    me {\n      id\n      name\n      email\n      username\n      role\n      isAdmin\n      createdAt\n      lastLogin\n    }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  mutation Register($input: RegisterInput!) {\n    register(input: $input) {\n      verificationRequired\n      message\n      token\n      user {\n        id\n        name\n        email\n        username\n        role\n        isAdmin\n        createdAt\n        lastLogin\n      }\n    }\n  }\n"): (typeof documents)["\n  mutation Register($input: RegisterInput!) {\n    register(input: $input) {\n      verificationRequired\n      message\n      token\n      user {\n        id\n        name\n        email\n        username\n        role\n        isAdmin\n        createdAt\n        lastLogin\n      }\n    }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  mutation ResendVerification($email: String!) {\n    resendVerification(email: $email) {\n      ok\n      message\n    }\n  }\n"): (typeof documents)["\n  mutation ResendVerification($email: String!) {\n    resendVerification(email: $email) {\n      ok\n      message\n    }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  mutation ResetPassword($input: ResetPasswordInput!) {\n    resetPassword(input: $input) {\n      ok\n      message\n    }\n  }\n"): (typeof documents)["\n  mutation ResetPassword($input: ResetPasswordInput!) {\n    resetPassword(input: $input) {\n      ok\n      message\n    }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  mutation VerifyEmail($token: String!) {\n    verifyEmail(token: $token) {\n      verified\n      message\n    }\n  }\n"): (typeof documents)["\n  mutation VerifyEmail($token: String!) {\n    verifyEmail(token: $token) {\n      verified\n      message\n    }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  fragment ChatMessageFields on ChatMessage {\n    id\n    sessionId\n    role\n    content\n    timestamp\n    status\n    replyTo\n    mode\n    knowledgeGap\n    usedNumbers\n    citations {\n      number\n      articleId\n      title\n      headingPath\n      heading\n    }\n    freshnessWarnings {\n      number\n      articleId\n      title\n      updatedAt\n      message\n    }\n    error {\n      code\n      message\n      retryable\n    }\n    feedback {\n      rating\n      comment\n    }\n    parentId\n    followUps\n    scope {\n      ...ChatScopeFields\n    }\n  }\n"): (typeof documents)["\n  fragment ChatMessageFields on ChatMessage {\n    id\n    sessionId\n    role\n    content\n    timestamp\n    status\n    replyTo\n    mode\n    knowledgeGap\n    usedNumbers\n    citations {\n      number\n      articleId\n      title\n      headingPath\n      heading\n    }\n    freshnessWarnings {\n      number\n      articleId\n      title\n      updatedAt\n      message\n    }\n    error {\n      code\n      message\n      retryable\n    }\n    feedback {\n      rating\n      comment\n    }\n    parentId\n    followUps\n    scope {\n      ...ChatScopeFields\n    }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  fragment ChatMessageBranchFields on ChatMessage {\n    siblingIndex\n    siblingCount\n    siblingIds\n  }\n"): (typeof documents)["\n  fragment ChatMessageBranchFields on ChatMessage {\n    siblingIndex\n    siblingCount\n    siblingIds\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  fragment ChatSessionFields on ChatSession {\n    id\n    sessionId\n    title\n    untitled\n    createdAt\n    lastUpdated\n    scope {\n      ...ChatScopeFields\n    }\n  }\n"): (typeof documents)["\n  fragment ChatSessionFields on ChatSession {\n    id\n    sessionId\n    title\n    untitled\n    createdAt\n    lastUpdated\n    scope {\n      ...ChatScopeFields\n    }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  query ChatSessions {\n    sessions {\n      ...ChatSessionFields\n    }\n  }\n"): (typeof documents)["\n  query ChatSessions {\n    sessions {\n      ...ChatSessionFields\n    }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  query SearchChatSessions($query: String!) {\n    searchSessions(query: $query) {\n      ...ChatSessionFields\n    }\n  }\n"): (typeof documents)["\n  query SearchChatSessions($query: String!) {\n    searchSessions(query: $query) {\n      ...ChatSessionFields\n    }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  query ChatMessages($sessionId: ID!, $before: ID, $limit: Int) {\n    messages(sessionId: $sessionId, before: $before, limit: $limit) {\n      ...ChatMessageFields\n      ...ChatMessageBranchFields\n    }\n  }\n"): (typeof documents)["\n  query ChatMessages($sessionId: ID!, $before: ID, $limit: Int) {\n    messages(sessionId: $sessionId, before: $before, limit: $limit) {\n      ...ChatMessageFields\n      ...ChatMessageBranchFields\n    }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  query ExportChatSession($sessionId: ID!) {\n    exportSession(sessionId: $sessionId)\n  }\n"): (typeof documents)["\n  query ExportChatSession($sessionId: ID!) {\n    exportSession(sessionId: $sessionId)\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  mutation CreateChatSession($title: String) {\n    createSession(title: $title) {\n      ...ChatSessionFields\n    }\n  }\n"): (typeof documents)["\n  mutation CreateChatSession($title: String) {\n    createSession(title: $title) {\n      ...ChatSessionFields\n    }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  mutation RenameChatSession($sessionId: ID!, $title: String!) {\n    renameSession(sessionId: $sessionId, title: $title) {\n      ...ChatSessionFields\n    }\n  }\n"): (typeof documents)["\n  mutation RenameChatSession($sessionId: ID!, $title: String!) {\n    renameSession(sessionId: $sessionId, title: $title) {\n      ...ChatSessionFields\n    }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  mutation DeleteChatSession($sessionId: ID!) {\n    deleteSession(sessionId: $sessionId)\n  }\n"): (typeof documents)["\n  mutation DeleteChatSession($sessionId: ID!) {\n    deleteSession(sessionId: $sessionId)\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  mutation SendChatMessage($sessionId: ID!, $content: String!, $scope: ChatScopeInput) {\n    sendMessage(sessionId: $sessionId, content: $content, scope: $scope) {\n      session {\n        ...ChatSessionFields\n      }\n      userMessage {\n        ...ChatMessageFields\n      }\n      assistantMessage {\n        ...ChatMessageFields\n      }\n    }\n  }\n"): (typeof documents)["\n  mutation SendChatMessage($sessionId: ID!, $content: String!, $scope: ChatScopeInput) {\n    sendMessage(sessionId: $sessionId, content: $content, scope: $scope) {\n      session {\n        ...ChatSessionFields\n      }\n      userMessage {\n        ...ChatMessageFields\n      }\n      assistantMessage {\n        ...ChatMessageFields\n      }\n    }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  mutation StopChatMessage($messageId: ID!) {\n    stopMessage(messageId: $messageId) {\n      ...ChatMessageFields\n    }\n  }\n"): (typeof documents)["\n  mutation StopChatMessage($messageId: ID!) {\n    stopMessage(messageId: $messageId) {\n      ...ChatMessageFields\n    }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  mutation RetryChatMessage($messageId: ID!) {\n    retryMessage(messageId: $messageId) {\n      ...ChatMessageFields\n    }\n  }\n"): (typeof documents)["\n  mutation RetryChatMessage($messageId: ID!) {\n    retryMessage(messageId: $messageId) {\n      ...ChatMessageFields\n    }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  mutation SetChatFeedback($messageId: ID!, $rating: FeedbackRating!, $comment: String) {\n    setFeedback(messageId: $messageId, rating: $rating, comment: $comment) {\n      ...ChatMessageFields\n    }\n  }\n"): (typeof documents)["\n  mutation SetChatFeedback($messageId: ID!, $rating: FeedbackRating!, $comment: String) {\n    setFeedback(messageId: $messageId, rating: $rating, comment: $comment) {\n      ...ChatMessageFields\n    }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  mutation EditChatMessage($messageId: ID!, $content: String!) {\n    editMessage(messageId: $messageId, content: $content) {\n      userMessage {\n        ...ChatMessageFields\n        ...ChatMessageBranchFields\n      }\n      assistantMessage {\n        ...ChatMessageFields\n        ...ChatMessageBranchFields\n      }\n    }\n  }\n"): (typeof documents)["\n  mutation EditChatMessage($messageId: ID!, $content: String!) {\n    editMessage(messageId: $messageId, content: $content) {\n      userMessage {\n        ...ChatMessageFields\n        ...ChatMessageBranchFields\n      }\n      assistantMessage {\n        ...ChatMessageFields\n        ...ChatMessageBranchFields\n      }\n    }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  mutation RegenerateChatMessage($messageId: ID!) {\n    regenerateMessage(messageId: $messageId) {\n      ...ChatMessageFields\n      ...ChatMessageBranchFields\n    }\n  }\n"): (typeof documents)["\n  mutation RegenerateChatMessage($messageId: ID!) {\n    regenerateMessage(messageId: $messageId) {\n      ...ChatMessageFields\n      ...ChatMessageBranchFields\n    }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  mutation SwitchChatBranch($messageId: ID!) {\n    switchBranch(messageId: $messageId) {\n      ...ChatMessageFields\n      ...ChatMessageBranchFields\n    }\n  }\n"): (typeof documents)["\n  mutation SwitchChatBranch($messageId: ID!) {\n    switchBranch(messageId: $messageId) {\n      ...ChatMessageFields\n      ...ChatMessageBranchFields\n    }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  subscription ChatMessageEvents($sessionId: ID!) {\n    chatMessageEvents(sessionId: $sessionId) {\n      type\n      sessionId\n      messageId\n      delta\n      questionParentId\n      title\n      message {\n        ...ChatMessageFields\n      }\n    }\n  }\n"): (typeof documents)["\n  subscription ChatMessageEvents($sessionId: ID!) {\n    chatMessageEvents(sessionId: $sessionId) {\n      type\n      sessionId\n      messageId\n      delta\n      questionParentId\n      title\n      message {\n        ...ChatMessageFields\n      }\n    }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  fragment ChatScopeFields on ChatScope {\n    kind\n    category\n    articles {\n      id\n      title\n    }\n    label\n  }\n"): (typeof documents)["\n  fragment ChatScopeFields on ChatScope {\n    kind\n    category\n    articles {\n      id\n      title\n    }\n    label\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  query ChatScopeArticleSearch($query: String!, $limit: Int) {\n    searchKnowledge(query: $query, limit: $limit) {\n      hits {\n        article {\n          id\n          title\n          category\n        }\n      }\n    }\n  }\n"): (typeof documents)["\n  query ChatScopeArticleSearch($query: String!, $limit: Int) {\n    searchKnowledge(query: $query, limit: $limit) {\n      hits {\n        article {\n          id\n          title\n          category\n        }\n      }\n    }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  query ChatScopeCategories {\n    knowledgeCategories {\n      name\n      count\n    }\n  }\n"): (typeof documents)["\n  query ChatScopeCategories {\n    knowledgeCategories {\n      name\n      count\n    }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  mutation SetChatScope($sessionId: ID!, $scope: ChatScopeInput!) {\n    setChatScope(sessionId: $sessionId, scope: $scope) {\n      id\n      scope {\n        ...ChatScopeFields\n      }\n    }\n  }\n"): (typeof documents)["\n  mutation SetChatScope($sessionId: ID!, $scope: ChatScopeInput!) {\n    setChatScope(sessionId: $sessionId, scope: $scope) {\n      id\n      scope {\n        ...ChatScopeFields\n      }\n    }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  query Environment {\n    environment {\n      environment\n      hostname\n      nodeEnv\n      replOwner\n    }\n  }\n"): (typeof documents)["\n  query Environment {\n    environment {\n      environment\n      hostname\n      nodeEnv\n      replOwner\n    }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  mutation AddBookmark($articleId: ID!) {\n    addBookmark(articleId: $articleId) {\n      created\n      bookmark {\n        id\n        articleId\n      }\n    }\n  }\n"): (typeof documents)["\n  mutation AddBookmark($articleId: ID!) {\n    addBookmark(articleId: $articleId) {\n      created\n      bookmark {\n        id\n        articleId\n      }\n    }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  fragment ArticleCardFields on KnowledgeArticle {\n    id\n    title\n    content\n    category\n    subcategory\n    tags\n    lastUpdated\n  }\n"): (typeof documents)["\n  fragment ArticleCardFields on KnowledgeArticle {\n    id\n    title\n    content\n    category\n    subcategory\n    tags\n    lastUpdated\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  query IsBookmarked($articleId: ID!) {\n    isBookmarked(articleId: $articleId)\n  }\n"): (typeof documents)["\n  query IsBookmarked($articleId: ID!) {\n    isBookmarked(articleId: $articleId)\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  query KnowledgeArticle($id: ID!) {\n    knowledgeArticle(id: $id) {\n      ...ArticleCardFields\n      createdAt\n      updatedAt\n      source {\n        kind\n        url\n        databaseTitle\n      }\n    }\n  }\n"): (typeof documents)["\n  query KnowledgeArticle($id: ID!) {\n    knowledgeArticle(id: $id) {\n      ...ArticleCardFields\n      createdAt\n      updatedAt\n      source {\n        kind\n        url\n        databaseTitle\n      }\n    }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  query KnowledgeArticles($category: String) {\n    knowledgeArticles(category: $category) {\n      ...ArticleCardFields\n    }\n  }\n"): (typeof documents)["\n  query KnowledgeArticles($category: String) {\n    knowledgeArticles(category: $category) {\n      ...ArticleCardFields\n    }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  query KnowledgeCategories {\n    knowledgeCategories {\n      name\n      count\n      icon\n      color\n      description\n      descriptionKey\n    }\n  }\n"): (typeof documents)["\n  query KnowledgeCategories {\n    knowledgeCategories {\n      name\n      count\n      icon\n      color\n      description\n      descriptionKey\n    }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  query MyBookmarks {\n    myBookmarks {\n      id\n      articleId\n      articleTitle\n      bookmarkedAt\n      article {\n        ...ArticleCardFields\n      }\n    }\n  }\n"): (typeof documents)["\n  query MyBookmarks {\n    myBookmarks {\n      id\n      articleId\n      articleTitle\n      bookmarkedAt\n      article {\n        ...ArticleCardFields\n      }\n    }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  query MyRecentSearches($limit: Int) {\n    myRecentSearches(limit: $limit) {\n      id\n      query\n      timestamp\n    }\n  }\n"): (typeof documents)["\n  query MyRecentSearches($limit: Int) {\n    myRecentSearches(limit: $limit) {\n      id\n      query\n      timestamp\n    }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  mutation RemoveBookmark($articleId: ID!) {\n    removeBookmark(articleId: $articleId)\n  }\n"): (typeof documents)["\n  mutation RemoveBookmark($articleId: ID!) {\n    removeBookmark(articleId: $articleId)\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  query SearchKnowledge($query: String!, $category: String, $limit: Int) {\n    searchKnowledge(query: $query, category: $category, limit: $limit) {\n      query\n      total\n      truncated\n      corrections {\n        from\n        to\n      }\n      hits {\n        score\n        snippet\n        highlights {\n          start\n          end\n        }\n        titleHighlights {\n          start\n          end\n        }\n        article {\n          ...ArticleCardFields\n        }\n      }\n    }\n  }\n"): (typeof documents)["\n  query SearchKnowledge($query: String!, $category: String, $limit: Int) {\n    searchKnowledge(query: $query, category: $category, limit: $limit) {\n      query\n      total\n      truncated\n      corrections {\n        from\n        to\n      }\n      hits {\n        score\n        snippet\n        highlights {\n          start\n          end\n        }\n        titleHighlights {\n          start\n          end\n        }\n        article {\n          ...ArticleCardFields\n        }\n      }\n    }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  mutation ConnectNotion($token: String!) {\n    connectNotion(token: $token) {\n      ...NotionStatusFields\n    }\n  }\n"): (typeof documents)["\n  mutation ConnectNotion($token: String!) {\n    connectNotion(token: $token) {\n      ...NotionStatusFields\n    }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  mutation DisconnectNotion {\n    disconnectNotion {\n      ...NotionStatusFields\n    }\n  }\n"): (typeof documents)["\n  mutation DisconnectNotion {\n    disconnectNotion {\n      ...NotionStatusFields\n    }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  query NotionAdminData {\n    notionDatabases {\n      id\n      title\n      icon\n      pageCount\n      lastEditedTime\n      properties {\n        name\n        type\n      }\n      score\n      recommended\n      selected\n    }\n    notionConfig {\n      selectedDatabases\n      lastUpdated\n      totalPages\n    }\n  }\n"): (typeof documents)["\n  query NotionAdminData {\n    notionDatabases {\n      id\n      title\n      icon\n      pageCount\n      lastEditedTime\n      properties {\n        name\n        type\n      }\n      score\n      recommended\n      selected\n    }\n    notionConfig {\n      selectedDatabases\n      lastUpdated\n      totalPages\n    }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  query NotionStatus {\n    notionStatus {\n      ...NotionStatusFields\n    }\n  }\n"): (typeof documents)["\n  query NotionStatus {\n    notionStatus {\n      ...NotionStatusFields\n    }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  fragment NotionStatusFields on NotionStatus {\n    connected\n    via\n    workspace {\n      id\n      name\n    }\n  }\n"): (typeof documents)["\n  fragment NotionStatusFields on NotionStatus {\n    connected\n    via\n    workspace {\n      id\n      name\n    }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  query NotionSync {\n    notionSync {\n      ...NotionSyncRunFields\n    }\n  }\n"): (typeof documents)["\n  query NotionSync {\n    notionSync {\n      ...NotionSyncRunFields\n    }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  subscription NotionSyncProgress {\n    notionSyncProgress {\n      ...NotionSyncRunFields\n    }\n  }\n"): (typeof documents)["\n  subscription NotionSyncProgress {\n    notionSyncProgress {\n      ...NotionSyncRunFields\n    }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  fragment NotionSyncRunFields on NotionSyncRun {\n    id\n    state\n    trigger\n    startedAt\n    finishedAt\n    pagesSeen\n    pagesDone\n    pagesFailed\n    articlesRemoved\n    error\n    errorKey\n    errorParams\n    failures {\n      pageId\n      title\n      url\n      message\n      messageKey\n      messageParams\n    }\n  }\n"): (typeof documents)["\n  fragment NotionSyncRunFields on NotionSyncRun {\n    id\n    state\n    trigger\n    startedAt\n    finishedAt\n    pagesSeen\n    pagesDone\n    pagesFailed\n    articlesRemoved\n    error\n    errorKey\n    errorParams\n    failures {\n      pageId\n      title\n      url\n      message\n      messageKey\n      messageParams\n    }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  mutation SaveNotionConfig($selectedDatabases: [ID!]!) {\n    saveNotionConfig(selectedDatabases: $selectedDatabases) {\n      selectedDatabases\n      lastUpdated\n      totalPages\n    }\n  }\n"): (typeof documents)["\n  mutation SaveNotionConfig($selectedDatabases: [ID!]!) {\n    saveNotionConfig(selectedDatabases: $selectedDatabases) {\n      selectedDatabases\n      lastUpdated\n      totalPages\n    }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  mutation StartNotionSync {\n    startNotionSync {\n      ...NotionSyncRunFields\n    }\n  }\n"): (typeof documents)["\n  mutation StartNotionSync {\n    startNotionSync {\n      ...NotionSyncRunFields\n    }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  query MyPreferences {\n    myPreferences {\n      language\n      theme\n      notifications\n      updatedAt\n    }\n  }\n"): (typeof documents)["\n  query MyPreferences {\n    myPreferences {\n      language\n      theme\n      notifications\n      updatedAt\n    }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  subscription PreferencesChanged {\n    preferencesChanged {\n      language\n      theme\n      notifications\n      updatedAt\n    }\n  }\n"): (typeof documents)["\n  subscription PreferencesChanged {\n    preferencesChanged {\n      language\n      theme\n      notifications\n      updatedAt\n    }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  mutation UpdatePreferences($input: PreferencesInput!) {\n    updatePreferences(input: $input) {\n      language\n      theme\n      notifications\n      updatedAt\n    }\n  }\n"): (typeof documents)["\n  mutation UpdatePreferences($input: PreferencesInput!) {\n    updatePreferences(input: $input) {\n      language\n      theme\n      notifications\n      updatedAt\n    }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  mutation ChangePassword($input: ChangePasswordInput!) {\n    changePassword(input: $input)\n  }\n"): (typeof documents)["\n  mutation ChangePassword($input: ChangePasswordInput!) {\n    changePassword(input: $input)\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  fragment ChatShareFields on ChatShare {\n    id\n    sessionId\n    title\n    createdAt\n    url\n  }\n"): (typeof documents)["\n  fragment ChatShareFields on ChatShare {\n    id\n    sessionId\n    title\n    createdAt\n    url\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  query ChatShares {\n    chatShares {\n      ...ChatShareFields\n    }\n  }\n"): (typeof documents)["\n  query ChatShares {\n    chatShares {\n      ...ChatShareFields\n    }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  mutation ShareChatSession($sessionId: ID!) {\n    shareChatSession(sessionId: $sessionId) {\n      ...ChatShareFields\n    }\n  }\n"): (typeof documents)["\n  mutation ShareChatSession($sessionId: ID!) {\n    shareChatSession(sessionId: $sessionId) {\n      ...ChatShareFields\n    }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  mutation RevokeChatShare($shareId: ID!) {\n    revokeChatShare(shareId: $shareId)\n  }\n"): (typeof documents)["\n  mutation RevokeChatShare($shareId: ID!) {\n    revokeChatShare(shareId: $shareId)\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  query SharedChat($shareId: ID!) {\n    sharedChat(shareId: $shareId) {\n      id\n      title\n      untitled\n      ownerName\n      sharedAt\n      messages {\n        ...ChatMessageFields\n      }\n    }\n  }\n"): (typeof documents)["\n  query SharedChat($shareId: ID!) {\n    sharedChat(shareId: $shareId) {\n      id\n      title\n      untitled\n      ownerName\n      sharedAt\n      messages {\n        ...ChatMessageFields\n      }\n    }\n  }\n"];

export function graphql(source: string) {
  return (documents as any)[source] ?? {};
}

export type DocumentType<TDocumentNode extends DocumentNode<any, any>> = TDocumentNode extends DocumentNode<  infer TType,  any>  ? TType  : never;