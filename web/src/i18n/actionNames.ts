/**
 * The activity badge's names (`admin.activity.action.<action>`) in one language, from the shared
 * ACTIVITY_ACTION_NAMES: the server's activity search finds an entry by the same words the badge shows.
 */
import { ACTIVITY_ACTION_NAMES, type Locale, type NamedActivityAction } from "@vidensbank/shared";

export function actionNames(locale: Locale) {
  return Object.fromEntries(
    Object.entries(ACTIVITY_ACTION_NAMES).map(([action, name]) => [
      `admin.activity.action.${action}`,
      name[locale],
    ]),
  ) as { readonly [A in NamedActivityAction as `admin.activity.action.${A}`]: string };
}
