import { useApolloClient, useMutation } from "@apollo/client/react";
import { useCallback, useEffect, useRef, useState } from "react";
import type { NotionSyncRunFieldsFragment } from "../../../gql/graphql";
import { useT } from "../../../i18n/i18n";
import { useServerMessage } from "../../../i18n/serverMessage";
import { toAppError } from "../../../lib/errors";
import { useToast } from "../../toast/hooks/useToast";
import { SYNC_POLL_MS } from "../constants";
import { NotionSyncQuery } from "../graphql/notionSync.query";
import { NotionSyncProgressSubscription } from "../graphql/notionSyncProgress.subscription";
import { StartNotionSyncMutation } from "../graphql/startNotionSync.mutation";
import { newerRun } from "../lib/notion";

export type NotionSyncRun = NotionSyncRunFieldsFragment;

/** After a save or a start, the latest run is polled this long for the new run even when nothing is running yet. */
const EXPECT_MS = 15_000;

export interface NotionSyncState {
  run: NotionSyncRun | null;
  loading: boolean;
  running: boolean;
  start: () => Promise<void>;
  starting: boolean;
  /** a sync was started elsewhere (saving the configuration starts one): look for it now */
  expectRun: () => void;
}

/**
 * The latest sync run, kept current by the `notionSyncProgress` subscription. Like the chat's answers: while a run
 * is in progress (or one was just started) and no live event came for SYNC_POLL_MS (the websocket cannot connect
 * or dropped), the latest run is polled every SYNC_POLL_MS instead.
 */
export function useNotionSync({ enabled }: { enabled: boolean }): NotionSyncState {
  const t = useT();
  const serverMessage = useServerMessage();
  const { toast } = useToast();
  const client = useApolloClient();
  const [run, setRun] = useState<NotionSyncRun | null>(null);
  const [loading, setLoading] = useState(enabled);
  const [expectingUntil, setExpectingUntil] = useState(0);
  const lastEventAt = useRef(0);
  const runRef = useRef<NotionSyncRun | null>(null);
  runRef.current = run;
  /** the run that was the latest when a new one was expected */
  const expectedAfter = useRef<string | null>(null);
  const [startMutation, starting] = useMutation(StartNotionSyncMutation);

  const take = useCallback((next: NotionSyncRun | null | undefined) => {
    if (next) setRun((current) => newerRun(current, next));
  }, []);

  const fetchLatest = useCallback(async () => {
    const result = await client.query({ query: NotionSyncQuery, fetchPolicy: "no-cache" });
    return result.data?.notionSync ?? null;
  }, [client]);

  // first load
  useEffect(() => {
    if (!enabled) return;
    let cancelled = false;
    setLoading(true);
    fetchLatest().then(
      (latest) => {
        if (cancelled) return;
        take(latest);
        setLoading(false);
      },
      () => !cancelled && setLoading(false),
    );
    return () => {
      cancelled = true;
    };
  }, [enabled, fetchLatest, take]);

  // live progress
  useEffect(() => {
    if (!enabled) return;
    const subscription = client.subscribe({ query: NotionSyncProgressSubscription }).subscribe({
      next: (result) => {
        const next = result.data?.notionSyncProgress;
        if (!next) return;
        lastEventAt.current = Date.now();
        take(next);
      },
      // polling takes over (below)
      error: () => undefined,
    });
    return () => subscription.unsubscribe();
  }, [client, enabled, take]);

  // poll while running (or a run is expected) and the live events are quiet
  const running = run?.state === "running";
  const expecting = expectingUntil > 0;
  useEffect(() => {
    if (!enabled || (!running && !expecting)) return;
    const timer = setInterval(() => {
      if (expectingUntil && Date.now() > expectingUntil) setExpectingUntil(0);
      if (Date.now() - lastEventAt.current < SYNC_POLL_MS) return;
      fetchLatest().then(take, () => undefined);
    }, SYNC_POLL_MS / 2);
    return () => clearInterval(timer);
  }, [enabled, running, expecting, expectingUntil, fetchLatest, take]);

  // a running run, or one newer than the latest at the time, ends the expectation
  useEffect(() => {
    if (expecting && run && (run.state === "running" || run.id !== expectedAfter.current))
      setExpectingUntil(0);
  }, [expecting, run]);

  const expectRun = useCallback(() => {
    expectedAfter.current = runRef.current?.id ?? null;
    setExpectingUntil(Date.now() + EXPECT_MS);
    fetchLatest().then(take, () => undefined);
  }, [fetchLatest, take]);

  const start = async () => {
    try {
      expectRun();
      const result = await startMutation();
      take(result.data?.startNotionSync);
    } catch (err) {
      toast({
        title: t("notion.sync.startFailed"),
        description: serverMessage(toAppError(err).serverMessage),
        variant: "destructive",
      });
    }
  };

  return { run, loading, running, start, starting: starting.loading, expectRun };
}
