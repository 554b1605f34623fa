/**
 * Answer feedback (thumbs on assistant messages, chat_messages.feedback): how many answers are rated up and
 * down right now (a changed rating counts once, as it stands), and the latest written comments, newest first.
 * Both queries go through the index on feedback.at (only rated messages have it).
 */
import { ChatMessageModel } from "../../chat/chat.model";
import { UserModel } from "../../users/user.model";
import { type StatsTimings, timed } from "./timing";

export const FEEDBACK_COMMENTS_SHOWN = 5;
const RATED = { "feedback.at": { $gte: new Date(0) } };

export interface FeedbackFigures {
  up: number;
  down: number;
  latestComments: Array<{ rating: string; comment: string; at: Date; userEmail: string | null }>;
}

export async function feedbackFigures(timings?: StatsTimings): Promise<FeedbackFigures> {
  return timed(timings, "feedback", async () => {
    const [ratings, comments] = await Promise.all([
      ChatMessageModel.aggregate<{ _id: string; n: number }>([
        { $match: { ...RATED, "feedback.rating": { $in: ["up", "down"] } } },
        { $group: { _id: "$feedback.rating", n: { $sum: 1 } } },
      ]),
      ChatMessageModel.find(
        { ...RATED, "feedback.comment": { $type: "string", $ne: "" } },
        { feedback: 1, userId: 1 },
      )
        .sort({ "feedback.at": -1 })
        .limit(FEEDBACK_COMMENTS_SHOWN)
        .lean(),
    ]);
    const users = await UserModel.find(
      { _id: { $in: [...new Set(comments.map((c) => String(c.userId)))] } },
      { email: 1 },
    ).lean();
    const emailOf = new Map(users.map((u) => [String(u._id), u.email]));
    const count = (rating: string) => ratings.find((r) => r._id === rating)?.n ?? 0;
    return {
      up: count("up"),
      down: count("down"),
      latestComments: comments.map((c) => ({
        rating: String(c.feedback?.rating),
        comment: String(c.feedback?.comment),
        at: c.feedback?.at as Date,
        userEmail: emailOf.get(String(c.userId)) ?? null,
      })),
    };
  });
}
