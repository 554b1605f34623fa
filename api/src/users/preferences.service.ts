/** User preferences (spec §3, defaults da / light / notifications on). */
import type { FieldError } from "@vidensbank/shared";
import { toObjectId } from "../db/ids";
import { Errors } from "../errors";
import type { EventBus } from "../events/bus";
import {
  DEFAULT_PREFERENCES,
  LANGUAGES,
  type LanguageName,
  PreferencesModel,
  THEMES,
  type ThemeName,
} from "./preferences.model";

export interface PreferencesView {
  language: LanguageName;
  theme: ThemeName;
  notifications: boolean;
  updatedAt: Date | null;
}

export interface PreferencesInput {
  language?: string;
  theme?: string;
  notifications?: boolean;
}

/** The user's preferences, or the defaults when none are saved. */
export async function getPreferences(userId: string): Promise<PreferencesView> {
  const doc = await PreferencesModel.findOne({ userId }).lean();
  if (!doc) return { ...DEFAULT_PREFERENCES, updatedAt: null };
  return {
    language: (doc.language ?? DEFAULT_PREFERENCES.language) as LanguageName,
    theme: (doc.theme ?? DEFAULT_PREFERENCES.theme) as ThemeName,
    notifications: doc.notifications ?? DEFAULT_PREFERENCES.notifications,
    updatedAt: (doc as { updatedAt?: Date }).updatedAt ?? null,
  };
}

export interface PreferencesServiceDeps {
  /** saved preferences are announced on PREFERENCES_CHANGED */
  events: EventBus;
}

/** Reading and saving a user's preferences. */
export class PreferencesService {
  constructor(private readonly deps: PreferencesServiceDeps) {}

  /** The user's preferences, or the defaults when none are saved. */
  get(userId: string): Promise<PreferencesView> {
    return getPreferences(userId);
  }

  /** Save the given preferences (missing fields keep their value) and announce them. */
  async update(userId: string, input: PreferencesInput): Promise<PreferencesView> {
    const saved = await updatePreferences(userId, input);
    this.deps.events.publish("PREFERENCES_CHANGED", { userId, ...saved });
    return saved;
  }

  /** Remove the user's preferences (the user is being deleted). */
  async removeUserData(userId: string): Promise<void> {
    const id = toObjectId(userId);
    if (id) await PreferencesModel.deleteMany({ userId: id });
  }
}

/** Save the given preferences (missing fields keep their value) without announcing them (PreferencesService.update does). */
export async function updatePreferences(userId: string, input: PreferencesInput): Promise<PreferencesView> {
  const fields: FieldError[] = [];
  if (input.language !== undefined && !(LANGUAGES as readonly string[]).includes(input.language)) {
    fields.push({ field: "language", key: "preferences.language" });
  }
  if (input.theme !== undefined && !(THEMES as readonly string[]).includes(input.theme)) {
    fields.push({ field: "theme", key: "preferences.theme" });
  }
  if (input.notifications !== undefined && typeof input.notifications !== "boolean") {
    fields.push({ field: "notifications", key: "preferences.notifications" });
  }
  if (fields.length > 0) throw Errors.invalidFields(fields);
  const set: Record<string, unknown> = {};
  if (input.language !== undefined) set.language = input.language;
  if (input.theme !== undefined) set.theme = input.theme;
  if (input.notifications !== undefined) set.notifications = input.notifications;
  const existing = await PreferencesModel.findOne({ userId });
  if (existing) {
    existing.set(set);
    await existing.save();
  } else {
    await PreferencesModel.create({ userId, ...DEFAULT_PREFERENCES, ...set });
  }
  return getPreferences(userId);
}
