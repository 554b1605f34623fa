import { useQuery, useSubscription } from "@apollo/client/react";
import { useCallback, useMemo, useState } from "react";
import type { ActivityEntryFieldsFragment } from "../../../gql/graphql";
import { ActivityLoggedSubscription } from "../graphql/activityLogged.subscription";
import { ActivityPageQuery } from "../graphql/activityPage.query";
import { ACTIVITY_PAGE_SIZE, type ActivityFilters, filterVariables, matchesFilters } from "../lib/activity";

export type ActivityEntry = ActivityEntryFieldsFragment;

const withoutDuplicates = (entries: readonly ActivityEntry[]) => {
  const seen = new Set<string>();
  return entries.filter((e) => !seen.has(e.id) && seen.add(e.id));
};

/**
 * One filtered page of the activity log from the server, "Vis flere" for the next page, and new entries pushed over
 * the activityLogged subscription put on top when they match the filters.
 */
export function useActivityLog(filters: ActivityFilters) {
  const variables = useMemo(
    () => ({ ...filterVariables(filters), offset: 0, limit: ACTIVITY_PAGE_SIZE }),
    [filters],
  );
  const { data, previousData, loading, error, fetchMore, refetch } = useQuery(ActivityPageQuery, {
    variables,
    fetchPolicy: "cache-and-network",
    notifyOnNetworkStatusChange: true,
  });
  const [loadingMore, setLoadingMore] = useState(false);

  useSubscription(ActivityLoggedSubscription, {
    onData: ({ client, data: pushed }) => {
      const entry = pushed.data?.activityLogged;
      if (!entry || !matchesFilters(entry, filters)) return;
      client.cache.updateQuery({ query: ActivityPageQuery, variables }, (prev) => {
        if (!prev || prev.activityPage.entries.some((e) => e.id === entry.id)) return prev;
        return {
          activityPage: {
            ...prev.activityPage,
            entries: [entry, ...prev.activityPage.entries],
            total: prev.activityPage.total + 1,
          },
        };
      });
    },
  });

  const page = (data ?? previousData)?.activityPage;
  const loadMore = useCallback(async () => {
    if (!page) return;
    setLoadingMore(true);
    try {
      await fetchMore({
        variables: { offset: page.entries.length },
        updateQuery: (prev, { fetchMoreResult }) => ({
          activityPage: {
            ...fetchMoreResult.activityPage,
            entries: withoutDuplicates([
              ...prev.activityPage.entries,
              ...fetchMoreResult.activityPage.entries,
            ]),
          },
        }),
      });
    } finally {
      setLoadingMore(false);
    }
  }, [fetchMore, page]);

  return {
    entries: page?.entries ?? [],
    total: page?.total ?? 0,
    hasMore: page?.hasMore ?? false,
    /** true only for the first load (a filter change keeps the previous list until the new one arrives) */
    loading: loading && !page,
    error,
    loadMore,
    loadingMore,
    refetch,
  };
}
