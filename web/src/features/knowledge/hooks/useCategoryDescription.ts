import { useServerMessage } from "../../../i18n/serverMessage";

/** What the server says about a category's line: the Danish text, and its catalogue key when the server wrote it. */
export interface CategoryLine {
  description: string;
  descriptionKey?: string | null;
}

/**
 * A category's description in the user's language: by its key (@vidensbank/shared messages.ts `categories.*`)
 * for a line the server wrote, else the description as it came (data, or a key this build does not know).
 */
export function useCategoryDescription(): (category: CategoryLine) => string {
  const text = useServerMessage();
  return (category) =>
    text({ key: category.descriptionKey, text: category.description }) ?? category.description;
}
