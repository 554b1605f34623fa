import { graphql } from "../../../gql";

export const EnvironmentQuery = graphql(`
  query Environment {
    environment {
      environment
      hostname
      nodeEnv
      replOwner
    }
  }
`);
