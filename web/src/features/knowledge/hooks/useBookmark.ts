import { useMutation, useQuery } from "@apollo/client/react";
import { useT } from "../../../i18n/i18n";
import { useServerMessage } from "../../../i18n/serverMessage";
import { toAppError } from "../../../lib/errors";
import { useToast } from "../../toast/hooks/useToast";
import { AddBookmarkMutation } from "../graphql/addBookmark.mutation";
import { IsBookmarkedQuery } from "../graphql/isBookmarked.query";
import { RemoveBookmarkMutation } from "../graphql/removeBookmark.mutation";

/** Whether the signed-in user has bookmarked an article, and a toggle that tells the user how it went. */
export function useBookmark(articleId: string) {
  const t = useT();
  const serverMessage = useServerMessage();
  const { toast } = useToast();
  const variables = { articleId };
  const { data, loading } = useQuery(IsBookmarkedQuery, { variables, fetchPolicy: "cache-and-network" });
  const options = {
    variables,
    // the bookmarks list is read again the next time it is shown
    update: (cache: { evict: (o: { fieldName: string }) => boolean }) => {
      cache.evict({ fieldName: "myBookmarks" });
    },
    refetchQueries: [{ query: IsBookmarkedQuery, variables }],
    awaitRefetchQueries: true,
  };
  const [add, adding] = useMutation(AddBookmarkMutation, options);
  const [remove, removing] = useMutation(RemoveBookmarkMutation, options);
  const bookmarked = data?.isBookmarked ?? false;

  const toggle = async () => {
    try {
      if (bookmarked) await remove();
      else await add();
      toast({
        title: t(bookmarked ? "knowledge.bookmarkRemoved" : "knowledge.bookmarkAdded"),
        variant: "success",
      });
    } catch (err) {
      const e = toAppError(err);
      toast({
        title: t("knowledge.bookmarkFailed"),
        description: serverMessage(e.serverMessage),
        variant: "destructive",
      });
    }
  };

  return { bookmarked, loading: loading && !data, pending: adding.loading || removing.loading, toggle };
}
