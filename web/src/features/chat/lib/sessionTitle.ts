import { NEW_SESSION_TITLE } from "@vidensbank/shared";

/**
 * A session's title as shown: `untitled` (the reader's `chat.untitled`) while the session has no title or still the
 * stored default NEW_SESSION_TITLE ('Ny chat', which the API also treats as no title: the first question names it),
 * else the title as it is.
 */
export function shownSessionTitle(title: string | null | undefined, untitled: string): string {
  return !title || title === NEW_SESSION_TITLE ? untitled : title;
}
