/** activity_logs collection: who did what (a message by key and its Danish text), for the admin activity tab. */
import mongoose, { type InferSchemaType, Schema } from "mongoose";

const activitySchema = new Schema(
  {
    action: { type: String, required: true },
    // Danish: the text of messageKey with messageParams (activity.messages.ts); entries from before the keys have
    // only this
    description: { type: String, required: true },
    messageKey: { type: String, default: null },
    messageParams: { type: Schema.Types.Mixed, default: null },
    userEmail: { type: String, default: null },
    userId: { type: Schema.Types.ObjectId, default: null },
    timestamp: { type: Date, required: true, default: () => new Date() },
    metadata: { type: Schema.Types.Mixed, default: {} },
  },
  { collection: "activity_logs", versionKey: false, minimize: false },
);
// newest first with a stable order (the admin's pages): the sort the activity log is always read in
activitySchema.index({ timestamp: -1, _id: -1 });

export type ActivityFields = InferSchemaType<typeof activitySchema>;

export const ActivityModel = mongoose.model("Activity", activitySchema);
