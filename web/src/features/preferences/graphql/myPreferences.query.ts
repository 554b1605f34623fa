import { graphql } from "../../../gql";

export const MyPreferencesQuery = graphql(`
  query MyPreferences {
    myPreferences {
      language
      theme
      notifications
      updatedAt
    }
  }
`);
