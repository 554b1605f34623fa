import { Arg, Authorized, Int, Query, Resolver, Root, Subscription } from "type-graphql";
import type { Topics } from "../events/bus";
import { fromBus } from "../graphql/pubsub";
import { ACTIVITY_SCOPE } from "./activity.events";
import { hoursOfTimeFilter, listActivity, pageActivity } from "./activity.service";
import { ActivityLogEntry, ActivityPage } from "./activity.types";

@Resolver()
export class ActivityResolver {
  @Authorized("ADMIN")
  @Query(() => [ActivityLogEntry], { description: "newest first" })
  activityLogs(
    @Arg("action", () => String, { nullable: true }) action?: string | null,
    @Arg("sinceHours", () => Int, { nullable: true }) sinceHours?: number | null,
    @Arg("search", () => String, { nullable: true }) search?: string | null,
    @Arg("limit", () => Int, { nullable: true }) limit?: number | null,
  ) {
    return listActivity({ action, sinceHours, search, limit });
  }

  @Authorized("ADMIN")
  @Query(() => ActivityPage, {
    description:
      "the admin's activity tab: filtered server-side (time: 1h | 24h | 7d), offset paging with the total",
  })
  activityPage(
    @Arg("action", () => String, { nullable: true }) action?: string | null,
    @Arg("time", () => String, { nullable: true }) time?: string | null,
    @Arg("search", () => String, { nullable: true }) search?: string | null,
    @Arg("offset", () => Int, { defaultValue: 0 }) offset?: number,
    @Arg("limit", () => Int, { defaultValue: 50 }) limit?: number,
  ) {
    return pageActivity({ action, sinceHours: hoursOfTimeFilter(time), search, offset, limit });
  }

  @Authorized("ADMIN")
  @Subscription(() => ActivityLogEntry, {
    subscribe: fromBus("ACTIVITY_LOGGED", null, ACTIVITY_SCOPE),
    description: "each new activity-log entry",
  })
  activityLogged(@Root() entry: Topics["ACTIVITY_LOGGED"]) {
    return entry;
  }
}
