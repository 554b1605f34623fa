import { graphql } from "../../../gql";

export const NotionSyncRunFieldsFragment = graphql(`
  fragment NotionSyncRunFields on NotionSyncRun {
    id
    state
    trigger
    startedAt
    finishedAt
    pagesSeen
    pagesDone
    pagesFailed
    articlesRemoved
    error
    errorKey
    errorParams
    failures {
      pageId
      title
      url
      message
      messageKey
      messageParams
    }
  }
`);
