/** The activity log's texts by key in the user's language: the activity list (also live entries) and the stats card. */
import type { ReactNode } from "react";
import { renderToStaticMarkup } from "react-dom/server";
import { describe, expect, it } from "vitest";
import { I18nContext, type Language, localeOf, makeTranslate } from "../../../i18n/i18n";
import type { ActivityEntry } from "../hooks/useActivityLog";
import { ActivityItem } from "./ActivityItem";
import { RecentActivityCard } from "./RecentActivityCard";

const inLanguage = (language: Language, node: ReactNode) =>
  renderToStaticMarkup(
    <I18nContext.Provider value={{ language, locale: localeOf(language), t: makeTranslate(language) }}>
      {node}
    </I18nContext.Provider>,
  );

const XSS = "<img src=x onerror=alert(1)>";

const entry = (fields: Partial<ActivityEntry>): ActivityEntry => ({
  id: "1",
  action: "search",
  description: 'Anna søgte efter "moms"',
  messageKey: "log.search",
  messageParams: { name: "Anna", query: "moms" },
  userEmail: "anna@minksekretariatet.dk",
  timestamp: "2026-11-26T11:30:00Z",
  metadata: null,
  ...fields,
});

const item = (language: Language, fields: Partial<ActivityEntry> = {}) =>
  inLanguage(language, <ActivityItem entry={entry(fields)} />);
const card = (language: Language, fields: Partial<ActivityEntry> = {}) =>
  inLanguage(language, <RecentActivityCard entries={[entry(fields)]} />);

describe("activity texts by key", () => {
  it("should show an entry in the user's language by its key", () => {
    for (const render of [item, card]) {
      expect(render("en")).toContain("Anna searched for &quot;moms&quot;");
      expect(render("en")).not.toContain("søgte");
      expect(render("da")).toContain("Anna søgte efter &quot;moms&quot;");
    }
  });

  it("should show an entry from before the keys, or with a key this build does not know, as stored", () => {
    const old = { messageKey: null, messageParams: null, description: "Bo loggede ind" };
    const unknown = { messageKey: "log.notYetKnown", messageParams: {}, description: "Bo gjorde noget" };
    for (const render of [item, card]) {
      expect(render("en", old)).toContain("Bo loggede ind");
      expect(render("en", unknown)).toContain("Bo gjorde noget");
    }
  });

  it("should show parameters that are user data as text, never as markup", () => {
    const fields = { messageParams: { name: "Anna", query: XSS } };
    for (const render of [item, card]) {
      const html = render("en", fields);
      expect(html).toContain("Anna searched for &quot;&lt;img src=x onerror=alert(1)&gt;&quot;");
      expect(html).not.toContain("<img");
    }
    // and the old entries' descriptions too
    expect(item("en", { messageKey: null, description: XSS })).not.toContain("<img");
  });

  it("should leave out a parameter that is neither text nor a number (the placeholder stays visible)", () => {
    expect(item("en", { messageParams: { name: { html: XSS }, query: "moms" } })).toContain(
      "{name} searched for &quot;moms&quot;",
    );
  });
});
