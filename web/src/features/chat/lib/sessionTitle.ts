/**
 * A session's title as shown: `untitledText` (the reader's `chat.untitled`) while the API says the session is
 * untitled (GraphQL `untitled`: no title, or still the stored default 'Ny chat'; the first question names it), else
 * its title as it is.
 */
export function shownSessionTitle(
  session: { title?: string | null; untitled: boolean } | null | undefined,
  untitledText: string,
): string {
  return !session || session.untitled || !session.title ? untitledText : session.title;
}
