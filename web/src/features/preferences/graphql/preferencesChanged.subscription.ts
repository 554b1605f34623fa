import { graphql } from "../../../gql";

export const PreferencesChangedSubscription = graphql(`
  subscription PreferencesChanged {
    preferencesChanged {
      language
      theme
      notifications
      updatedAt
    }
  }
`);
