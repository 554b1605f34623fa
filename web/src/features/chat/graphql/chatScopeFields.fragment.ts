import { graphql } from "../../../gql";

/** A session's or an answer's scope (issue 17: scope a question). */
export const ChatScopeFieldsFragment = graphql(`
  fragment ChatScopeFields on ChatScope {
    kind
    category
    articles {
      id
      title
    }
    label
  }
`);
