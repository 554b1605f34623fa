import { da, type MessageKey } from "../../../i18n/da";
import { useT } from "../../../i18n/i18n";

/**
 * A category's description in the user's language: the known categories have message keys; any other category
 * shows the server's (Danish) line.
 */
export function useCategoryDescription(): (category: { name: string; description: string }) => string {
  const t = useT();
  return (category) => {
    const key = `knowledge.categoryDescription.${category.name}`;
    return key in da ? t(key as MessageKey) : category.description;
  };
}
