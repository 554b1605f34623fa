import { NOTION_FAILURE_KEYS, type NotionFailureReason, notionFailureStoredText } from "@vidensbank/shared";
import type { ReactNode } from "react";
import { renderToStaticMarkup } from "react-dom/server";
import { describe, expect, it } from "vitest";
import { I18nContext, type Language, localeOf, makeTranslate } from "../../../i18n/i18n";
import type { NotionSyncRun, NotionSyncState } from "../hooks/useNotionSync";
import { notionFailureText } from "../lib/notion";
import { NotionSyncCard } from "./NotionSyncCard";

const failedRun = (over: Partial<NotionSyncRun> = {}): NotionSyncRun => ({
  id: "r1",
  state: "failed",
  trigger: "manual",
  startedAt: "2026-11-26T01:00:00.000Z",
  finishedAt: "2026-11-26T01:02:00.000Z",
  pagesSeen: 3,
  pagesDone: 1,
  pagesFailed: 2,
  articlesRemoved: 0,
  error: "Notion afviste nøglen (ugyldig eller tilbagekaldt)",
  errorKey: "unauthorized",
  errorParams: {},
  failures: [
    {
      pageId: "p1",
      title: "Ferieregler",
      url: null,
      message: "Notion svarede ikke: for mange forespørgsler, også efter ventetid (429, rate_limited)",
      messageKey: "rateLimited",
      messageParams: { detail: "429, rate_limited" },
    },
    // a failure stored before the reasons were keyed: its text as it was
    {
      pageId: "p2",
      title: "Løn",
      url: null,
      message: "Siden findes ikke længere i Notion",
      messageKey: null,
      messageParams: null,
    },
  ],
  ...over,
});

const state = (run: NotionSyncRun): NotionSyncState => ({
  run,
  loading: false,
  running: false,
  start: async () => undefined,
  starting: false,
  expectRun: () => undefined,
});

function inLanguage(language: Language, node: ReactNode): string {
  return renderToStaticMarkup(
    <I18nContext.Provider value={{ language, locale: localeOf(language), t: makeTranslate(language) }}>
      {node}
    </I18nContext.Provider>,
  ).replace(/<[^>]+>/g, " ");
}

describe("NotionSyncCard: why a sync or a page failed, in the reader's language", () => {
  it("should show the reasons in English by their keys, and an older run's stored text as it is", () => {
    const en = inLanguage("en", <NotionSyncCard state={state(failedRun())} />);
    expect(en).toContain("Notion refused the token (invalid or revoked)");
    expect(en).toContain("Notion did not answer: too many requests, even after waiting (429, rate_limited)");
    expect(en).toContain("Siden findes ikke længere i Notion");
    expect(en).not.toContain("Notion afviste nøglen");
  });

  it("should show the same Danish texts as the API stored, in Danish", () => {
    const run = failedRun();
    const da = inLanguage("da", <NotionSyncCard state={state(run)} />);
    expect(da).toContain(run.error);
    for (const f of run.failures) expect(da).toContain(f.message);
  });

  it("should translate a shared catalogue key, and fall back to the text for a key this build does not know", () => {
    const shared = { text: "Angiv en Notion-integrationsnøgle", key: "notion.tokenRequired", params: {} };
    expect(notionFailureText(shared, "en")).toBe("Give a Notion integration token");
    expect(notionFailureText({ text: "Ny fejl", key: "someFutureReason", params: null }, "en")).toBe(
      "Ny fejl",
    );
    // the run refused because another sync runs has been stored in English: Danish readers get Danish
    const busy = { text: "Another sync is running", key: "alreadyRunning", params: {} };
    expect(notionFailureText(busy, "da")).toBe("En anden synkronisering er i gang");
    // a parameter that is not a string or a number is not shown
    const odd = { text: "x", key: "unexpectedShape", params: { field: { nested: true } } };
    expect(notionFailureText(odd, "en")).toBe(
      "Notion sent an unexpected answer (the field {field} is missing or has another shape)",
    );
  });
});

describe("the Notion failure texts", () => {
  it("should render every stored reason through the shared catalogue, not as its stored text", () => {
    for (const reason of Object.keys(NOTION_FAILURE_KEYS) as NotionFailureReason[]) {
      const stored = { text: "stored", key: reason, params: { detail: "1", field: "f" } };
      expect(notionFailureText(stored, "en"), reason).not.toBe("stored");
      expect(notionFailureText(stored, "da"), reason).not.toBe("stored");
    }
  });

  it("should show a run the API stored in English, and as the API stored it in Danish", () => {
    // what the API stores for a 503 (api/src/notion/notion.run.test.ts: describeFailure stores the shared text)
    const params = { detail: "503, service_unavailable" };
    const stored = { text: notionFailureStoredText("notionError", params), key: "notionError", params };
    expect(notionFailureText(stored, "en")).toBe(
      "Notion did not answer: an error at Notion (503, service_unavailable)",
    );
    expect(notionFailureText(stored, "da")).toBe(stored.text);
    expect(stored.text).toBe("Notion svarede ikke: fejl hos Notion (503, service_unavailable)");
  });
});
