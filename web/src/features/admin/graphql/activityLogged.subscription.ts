import { graphql } from "../../../gql";

export const ActivityLoggedSubscription = graphql(`
  subscription ActivityLogged {
    activityLogged {
      ...ActivityEntryFields
    }
  }
`);
