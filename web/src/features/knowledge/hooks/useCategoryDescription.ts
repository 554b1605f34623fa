import { da, type MessageKey } from "../../../i18n/da";
import { useT } from "../../../i18n/i18n";

/**
 * A category's description in the user's language: the known categories have message keys; any other category
 * shows the server's line, except the server's default line for a category without its own style ('Øvrige
 * artikler', api/src/knowledge/categories.ts), which has a key too, so English screens do not show it in Danish.
 */
export function useCategoryDescription(): (category: { name: string; description: string }) => string {
  const t = useT();
  return (category) => {
    const key = `knowledge.categoryDescription.${category.name}`;
    if (key in da) return t(key as MessageKey);
    if (category.description === da["knowledge.otherCategoryDescription"]) {
      return t("knowledge.otherCategoryDescription");
    }
    return category.description;
  };
}
