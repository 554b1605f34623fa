import { Arg, Authorized, Int, Query, Resolver, Root, Subscription } from "type-graphql";
import type { Topics } from "../events/bus";
import { fromBus } from "../graphql/pubsub";
import { listActivity } from "./activity.service";
import { ActivityLogEntry } from "./activity.types";

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
  @Subscription(() => ActivityLogEntry, {
    subscribe: fromBus("ACTIVITY_LOGGED"),
    description: "each new activity-log entry",
  })
  activityLogged(@Root() entry: Topics["ACTIVITY_LOGGED"]) {
    return entry;
  }
}
