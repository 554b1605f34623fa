/**
 * chat_shares: a read-only snapshot of one conversation as its owner saw it when sharing (issue 17). The public
 * id is random (SHARE_ID_BYTES of crypto randomness), never the ObjectId. `messages` holds the chat's message
 * views of that moment (the owner's feedback left out); removed with the session or the owner.
 */
import mongoose, { Schema } from "mongoose";

const shareSchema = new Schema(
  {
    shareId: { type: String, required: true, unique: true },
    userId: { type: Schema.Types.ObjectId, required: true, index: true },
    sessionId: { type: String, required: true, index: true },
    title: { type: String, required: true },
    createdAt: { type: Date, required: true },
    messages: { type: [Schema.Types.Mixed], default: [] },
  },
  { collection: "chat_shares", versionKey: false },
);
shareSchema.index({ createdAt: -1 });

export const ChatShareModel = mongoose.model("ChatShare", shareSchema);
