/** user_preferences collection: one document per user, removed with the user. */
import mongoose, { type HydratedDocument, type InferSchemaType, Schema } from "mongoose";

export const LANGUAGES = ["da", "en"] as const;
export const THEMES = ["light", "dark", "system"] as const;
export type LanguageName = (typeof LANGUAGES)[number];
export type ThemeName = (typeof THEMES)[number];

/** spec §9 defaults */
export const DEFAULT_PREFERENCES = { language: "da", theme: "light", notifications: true } as const;

const preferencesSchema = new Schema(
  {
    userId: { type: Schema.Types.ObjectId, required: true, unique: true },
    language: { type: String, enum: LANGUAGES, default: DEFAULT_PREFERENCES.language },
    theme: { type: String, enum: THEMES, default: DEFAULT_PREFERENCES.theme },
    notifications: { type: Boolean, default: DEFAULT_PREFERENCES.notifications },
  },
  { collection: "user_preferences", timestamps: true },
);

export type PreferencesFields = InferSchemaType<typeof preferencesSchema>;
export type PreferencesDoc = HydratedDocument<PreferencesFields>;

export const PreferencesModel = mongoose.model("Preferences", preferencesSchema);
