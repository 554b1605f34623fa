/**
 * How the knowledge pages show a category: an MUI icon name, a colour and a one-line description, a catalogue
 * text (@vidensbank/shared messages.ts: its key for the web app to show in the user's language, its Danish text
 * for everyone else). The four categories of the spec have their own style; an article in any other category
 * still shows, with the default style.
 */
import { formatMessage, type MessageKey } from "@vidensbank/shared";

/** The catalogue keys of the category lines. */
export type CategoryDescriptionKey = Extract<MessageKey, `categories.${string}`>;

export interface CategoryStyle {
  /** an @mui/icons-material icon name, e.g. "AccountBalance" */
  icon: string;
  /** a CSS hex colour */
  color: string;
  /** one line, Danish: the catalogue text of descriptionKey */
  description: string;
  /** the line's catalogue key */
  descriptionKey: CategoryDescriptionKey;
}

/** A style whose description is the Danish text of its key (one place, so the two cannot disagree). */
function style(icon: string, color: string, descriptionKey: CategoryDescriptionKey): CategoryStyle {
  return { icon, color, description: formatMessage(descriptionKey, {}, "da"), descriptionKey };
}

/** The known categories in the order the knowledge page lists them. */
export const CATEGORY_STYLES: Readonly<Record<string, CategoryStyle>> = {
  Økonomi: style("AccountBalance", "#2e7d32", "categories.economy"),
  Procedurer: style("ListAlt", "#1565c0", "categories.procedures"),
  Roller: style("Groups", "#6a1b9a", "categories.roles"),
  Sagsbehandling: style("Gavel", "#c62828", "categories.caseHandling"),
};

/** The style of a category not listed above ('Øvrige artikler'). */
export const DEFAULT_CATEGORY_STYLE: CategoryStyle = style("Article", "#546e7a", "categories.other");

/** The style of any category name (the default style for one not in CATEGORY_STYLES). */
export function categoryStyle(category: string): CategoryStyle {
  return Object.hasOwn(CATEGORY_STYLES, category) ? CATEGORY_STYLES[category] : DEFAULT_CATEGORY_STYLE;
}

/** Known categories first (in their order), then the others alphabetically (Danish collation). */
export function compareCategories(a: string, b: string): number {
  const known = Object.keys(CATEGORY_STYLES);
  const ia = known.indexOf(a);
  const ib = known.indexOf(b);
  if (ia >= 0 || ib >= 0) return (ia < 0 ? known.length : ia) - (ib < 0 ? known.length : ib);
  return a.localeCompare(b, "da");
}
