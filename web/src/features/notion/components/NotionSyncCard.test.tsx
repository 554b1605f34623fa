import type { ReactNode } from "react";
import { renderToStaticMarkup } from "react-dom/server";
import { describe, expect, it } from "vitest";
import { NOTION_FAILURES_DA } from "../../../../../api/src/notion/notion.run";
import { da, type MessageKey } from "../../../i18n/da";
import { en } from "../../../i18n/en";
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
  it("should be the API's Danish texts in Danish (one reason, one text) and have an English text for every reason", () => {
    for (const [key, text] of Object.entries(NOTION_FAILURES_DA)) {
      const name = `notion.failure.${key}` as MessageKey;
      // the refused run's stored text is English (kept for the CLI and the fields); the web says it in Danish
      if (key !== "alreadyRunning") expect(da[name]).toBe(text);
      expect(typeof en[name]).toBe("string");
    }
  });
});
