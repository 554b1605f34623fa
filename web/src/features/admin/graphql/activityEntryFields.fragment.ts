import { graphql } from "../../../gql";

export const ActivityEntryFieldsFragment = graphql(`
  fragment ActivityEntryFields on ActivityLogEntry {
    id
    action
    description
    messageKey
    messageParams
    userEmail
    timestamp
    metadata
  }
`);
