import { describe, expect, it } from "vitest";
import { textFor } from "../../../i18n/i18n";
import {
  actionLabelKey,
  filterVariables,
  formatLogDate,
  formatMetadata,
  hasFilters,
  matchesFilters,
  NO_FILTERS,
} from "./activity";
import { adminTabHref, readAdminTab } from "./adminTabs";
import { roundedMinutes, shortDay, upShare } from "./stats";

describe("adminTabs", () => {
  it("should default to users and read the tab from the address", () => {
    expect(readAdminTab(new URLSearchParams(""))).toBe("users");
    expect(readAdminTab(new URLSearchParams("tab=stats"))).toBe("stats");
    expect(readAdminTab(new URLSearchParams("tab=activity"))).toBe("activity");
    expect(readAdminTab(new URLSearchParams("tab=notion"))).toBe("notion");
    expect(readAdminTab(new URLSearchParams("tab=<script>"))).toBe("users");
  });

  it("should give the default tab no parameter", () => {
    expect(adminTabHref("users")).toBe("/admin");
    expect(adminTabHref("activity")).toBe("/admin?tab=activity");
  });
});

describe("activity filters", () => {
  const now = new Date("2026-11-26T12:00:00Z");
  const entry = {
    action: "login",
    description: "Bruger loggede ind",
    userEmail: "Karen@minksekretariatet.dk",
    timestamp: "2026-11-26T11:30:00Z",
  };

  it("should send nothing for 'all' and a trimmed search", () => {
    expect(filterVariables(NO_FILTERS)).toEqual({ action: null, time: null, search: null });
    expect(filterVariables({ action: "chat", time: "7d", search: "  karen " })).toEqual({
      action: "chat",
      time: "7d",
      search: "karen",
    });
    expect(hasFilters(NO_FILTERS)).toBe(false);
    expect(hasFilters({ ...NO_FILTERS, search: " " })).toBe(false);
    expect(hasFilters({ ...NO_FILTERS, time: "1h" })).toBe(true);
  });

  it("should match a live entry by action, time window and case-insensitive search", () => {
    expect(matchesFilters(entry, NO_FILTERS, now)).toBe(true);
    expect(matchesFilters(entry, { ...NO_FILTERS, action: "login" }, now)).toBe(true);
    expect(matchesFilters(entry, { ...NO_FILTERS, action: "chat" }, now)).toBe(false);
    expect(matchesFilters(entry, { ...NO_FILTERS, time: "1h" }, now)).toBe(true);
    expect(
      matchesFilters({ ...entry, timestamp: "2026-11-26T10:59:00Z" }, { ...NO_FILTERS, time: "1h" }, now),
    ).toBe(false);
    expect(
      matchesFilters({ ...entry, timestamp: "2026-11-19T12:30:00Z" }, { ...NO_FILTERS, time: "7d" }, now),
    ).toBe(true);
    expect(matchesFilters(entry, { ...NO_FILTERS, search: "KAREN" }, now)).toBe(true);
    expect(matchesFilters(entry, { ...NO_FILTERS, search: "loggede" }, now)).toBe(true);
    expect(matchesFilters(entry, { ...NO_FILTERS, search: "bogmærke" }, now)).toBe(false);
  });

  it("should match a live entry by the words its message says in either language, as the server's search does", () => {
    const keyed = { ...entry, messageKey: "log.login" };
    expect(matchesFilters(keyed, { ...NO_FILTERS, search: "Signed in" }, now)).toBe(true);
    expect(matchesFilters(entry, { ...NO_FILTERS, search: "Signed in" }, now)).toBe(false);
    expect(
      matchesFilters({ ...entry, messageKey: "log.unknown" }, { ...NO_FILTERS, search: "signed in" }, now),
    ).toBe(false);
    expect(matchesFilters(keyed, { ...NO_FILTERS, search: "name" }, now)).toBe(false);
  });

  it("should match a live entry by its badge's name in either language and by the action's code", () => {
    const sync = { ...entry, action: "notion_sync", description: "Synkroniserede 3 artikler" };
    for (const search of ["Notion-synkronisering", "notion sync", "notion_sync", "SYNKRONISERING"]) {
      expect(matchesFilters(sync, { ...NO_FILTERS, search }, now), search).toBe(true);
    }
    expect(matchesFilters(entry, { ...NO_FILTERS, search: "Sign-in" }, now)).toBe(true);
    expect(matchesFilters(entry, { ...NO_FILTERS, search: "Notion" }, now)).toBe(false);
    // an action without a name matches by its code only
    const unnamed = { ...entry, action: "something_new" };
    expect(matchesFilters(unnamed, { ...NO_FILTERS, search: "something" }, now)).toBe(true);
    expect(matchesFilters(unnamed, { ...NO_FILTERS, search: "Login" }, now)).toBe(false);
  });

  it("should write dates as dd/MM/yyyy HH:mm in local time", () => {
    expect(formatLogDate(new Date(2026, 0, 5, 9, 7))).toBe("05/01/2026 09:07");
  });

  it("should show metadata as indented JSON text, or nothing when empty", () => {
    expect(formatMetadata(null)).toBeNull();
    expect(formatMetadata({})).toBeNull();
    expect(formatMetadata({ html: "<b>x</b>", n: 1 })).toBe('{\n  "html": "<b>x</b>",\n  "n": 1\n}');
  });
});

describe("activity badge", () => {
  // every action the API logs (api/src: activity.log calls), not only the five of the filter
  const LOGGED = [
    ...["login", "logout", "register", "verify_email", "password_change", "password_reset"],
    ...["chat", "message", "bookmark", "search", "chat_share", "chat_share_revoke"],
    ...["admin_create_user", "admin_delete_user", "admin_reset_password"],
    ...["notion_connect", "notion_disconnect", "notion_config", "notion_sync"],
  ];

  it("should name every logged action in each language, not by its code", () => {
    for (const action of LOGGED) {
      const key = actionLabelKey(action);
      expect(key, action).not.toBeNull();
      if (!key) continue;
      expect(textFor("da", key), action).not.toBe(action);
      expect(textFor("en", key), action).not.toBe(action);
    }
    expect(textFor("da", actionLabelKey("notion_sync")!)).toBe("Notion-synkronisering");
    expect(textFor("en", actionLabelKey("search")!)).toBe("Search");
  });

  it("should have no name for an action the UI does not know, nor for the filter's 'all'", () => {
    expect(actionLabelKey("something_new")).toBeNull();
    expect(actionLabelKey("all")).toBeNull();
  });
});

describe("stats figures", () => {
  it("should show seconds as rounded minutes", () => {
    expect(roundedMinutes(0)).toBe(0);
    expect(roundedMinutes(89)).toBe(1);
    expect(roundedMinutes(90)).toBe(2);
    expect(roundedMinutes(754)).toBe(13);
  });

  it("should give the share of thumbs up, or null without ratings", () => {
    expect(upShare(0, 0)).toBeNull();
    expect(upShare(3, 1)).toBe(75);
    expect(upShare(1, 2)).toBe(33);
  });

  it("should write chart days as the reader's locale does", () => {
    // (the trailing dot of Danish depends on the ICU data of the runtime)
    expect(shortDay("2026-11-05", "da-DK")).toMatch(/^5\.11\.?$/);
    expect(shortDay("2026-11-05", "en-GB")).toBe("05/11");
    expect(shortDay("not a day", "da-DK")).toBe("not a day");
  });
});

describe("isJustNow", () => {
  it("should call less than a minute ago 'just now'", async () => {
    const { isJustNow } = await import("./stats");
    const now = new Date("2026-11-26T12:00:00Z");
    expect(isJustNow("2026-11-26T11:59:30Z", now)).toBe(true);
    expect(isJustNow("2026-11-26T11:58:59Z", now)).toBe(false);
  });
});
