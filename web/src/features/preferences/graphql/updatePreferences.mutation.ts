import { graphql } from "../../../gql";

export const UpdatePreferencesMutation = graphql(`
  mutation UpdatePreferences($input: PreferencesInput!) {
    updatePreferences(input: $input) {
      language
      theme
      notifications
      updatedAt
    }
  }
`);
