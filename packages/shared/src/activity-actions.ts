/**
 * The names of logged actions, shown on the activity badge (`notion_sync` → "Notion-synkronisering" / "Notion
 * sync"; web: admin.activity.action.*, i18n/actionNames.ts), and the one rule for finding an entry by its
 * action's name: the API's activity search puts the actions actionsSaying returns in its query, the web's live
 * filter asks actionSays of a pushed entry. Here, not in the web's texts, because the server searches them too.
 */
import type { CatalogueEntry } from "./messages";

export const ACTIVITY_ACTION_NAMES = {
  login: { da: "Login", en: "Sign-in" },
  register: { da: "Registrering", en: "Registration" },
  chat: { da: "Chat", en: "Chat" },
  bookmark: { da: "Bogmærke", en: "Bookmark" },
  search: { da: "Søgning", en: "Search" },
  logout: { da: "Log ud", en: "Sign-out" },
  verify_email: { da: "E-mail bekræftet", en: "Email verified" },
  password_change: { da: "Adgangskode ændret", en: "Password changed" },
  password_reset: { da: "Password nulstillet", en: "Password reset" },
  message: { da: "Besked", en: "Message" },
  admin_create_user: { da: "Bruger oprettet", en: "User created" },
  admin_delete_user: { da: "Bruger slettet", en: "User deleted" },
  admin_reset_password: { da: "Password ændret af admin", en: "Password set by admin" },
  notion_connect: { da: "Notion forbundet", en: "Notion connected" },
  notion_disconnect: { da: "Notion afbrudt", en: "Notion disconnected" },
  notion_config: { da: "Videnskilder valgt", en: "Knowledge sources chosen" },
  notion_sync: { da: "Notion-synkronisering", en: "Notion sync" },
  chat_share: { da: "Delt samtale", en: "Shared conversation" },
  chat_share_revoke: { da: "Deling tilbagekaldt", en: "Share revoked" },
} as const satisfies Record<string, CatalogueEntry>;

/** An action that has a name (an action without one shows as logged). */
export type NamedActivityAction = keyof typeof ACTIVITY_ACTION_NAMES;

const NAMED = Object.keys(ACTIVITY_ACTION_NAMES) as NamedActivityAction[];

/** Does `name` say `search`, in either language (case-insensitive)? */
function nameSays(name: CatalogueEntry, wanted: string): boolean {
  return name.da.toLowerCase().includes(wanted) || name.en.toLowerCase().includes(wanted);
}

/** Does `action`'s name say `search` in either language? False for an action without a name and an empty search. */
export function actionSays(action: string, search: string): boolean {
  const wanted = search.trim().toLowerCase();
  return (
    wanted !== "" &&
    Object.hasOwn(ACTIVITY_ACTION_NAMES, action) &&
    nameSays(ACTIVITY_ACTION_NAMES[action as NamedActivityAction], wanted)
  );
}

/** The actions whose name says `search` in either language ("sync" → ["notion_sync"]). */
export function actionsSaying(search: string): NamedActivityAction[] {
  return NAMED.filter((action) => actionSays(action, search));
}
