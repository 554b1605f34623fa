import { graphql } from "../../../gql";

export const AdminStatsQuery = graphql(`
  query AdminStats {
    adminStats {
      totalUsers
      activeUsers
      totalChatSessions
      todayMessages
      totalMessages
      totalBookmarks
      weeklyActiveUsers
      avgSessionDuration
      topCategories {
        category
        count
      }
      recentActivity {
        description
        messageKey
        messageParams
        userEmail
        timestamp
      }
      messagesPerDay {
        date
        count
      }
      activeUsersPerDay {
        date
        count
      }
      feedback {
        up
        down
        latestComments {
          rating
          comment
          at
          userEmail
        }
      }
    }
  }
`);
