/**
 * How the knowledge pages show a category: an MUI icon name, a colour and a one-line Danish description.
 * The four categories of the spec have their own style; an article in any other category still shows,
 * with the default style.
 */

export interface CategoryStyle {
  /** an @mui/icons-material icon name, e.g. "AccountBalance" */
  icon: string;
  /** a CSS hex colour */
  color: string;
  /** one line, Danish */
  description: string;
}

/** The known categories in the order the knowledge page lists them. */
export const CATEGORY_STYLES: Readonly<Record<string, CategoryStyle>> = {
  Økonomi: {
    icon: "AccountBalance",
    color: "#2e7d32",
    description: "Budget, regnskab, betalinger, udlæg og kontingent",
  },
  Procedurer: {
    icon: "ListAlt",
    color: "#1565c0",
    description: "Faste arbejdsgange: møder, referater, GDPR og databrud",
  },
  Roller: {
    icon: "Groups",
    color: "#6a1b9a",
    description: "Hvem gør hvad: ansvar, beføjelser og stedfortrædere",
  },
  Sagsbehandling: {
    icon: "Gavel",
    color: "#c62828",
    description: "Sager fra modtagelse til afgørelse, frister, klager og aktindsigt",
  },
};

/** The style of a category not listed above. */
export const DEFAULT_CATEGORY_STYLE: CategoryStyle = {
  icon: "Article",
  color: "#546e7a",
  description: "Øvrige artikler",
};

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
