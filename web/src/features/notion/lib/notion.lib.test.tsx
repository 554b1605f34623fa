import { renderToStaticMarkup } from "react-dom/server";
import { describe, expect, it } from "vitest";
import { safeHttpUrl } from "../../../lib/urls";
import { ScoreBar } from "../components/ScoreBar";
import {
  newerRun,
  notionReturnOf,
  propertySummary,
  sameSelection,
  scoreColor,
  summaryFigures,
  syncPercent,
  toggled,
  withoutNotionParam,
} from "./notion";

const run = (over: Partial<Parameters<typeof newerRun>[0] & object> = {}) => ({
  id: "r1",
  state: "running",
  startedAt: "2026-11-26T01:00:00.000Z",
  pagesSeen: 10,
  pagesDone: 2,
  pagesFailed: 0,
  ...over,
});

describe("notion panel rules", () => {
  it("should colour the score green at 80, yellow at 60 and red below (spec §2/§9)", () => {
    expect([100, 80, 79, 60, 59, 0].map(scoreColor)).toEqual([
      "success",
      "success",
      "warning",
      "warning",
      "error",
      "error",
    ]);
  });

  it("should show up to 3 property names and then '…'", () => {
    expect(propertySummary(["Navn", "Indhold"])).toBe("Navn, Indhold");
    expect(propertySummary(["Navn", "Indhold", "Kategori"])).toBe("Navn, Indhold, Kategori");
    expect(propertySummary(["Navn", "Indhold", "Kategori", "Tags"])).toBe("Navn, Indhold, Kategori, …");
  });

  it("should count the databases, the selected ones and only their pages", () => {
    const dbs = [
      { id: "a", pageCount: 10 },
      { id: "b", pageCount: 5 },
      { id: "c", pageCount: 1 },
    ];
    expect(summaryFigures(dbs, new Set(["a", "c"]))).toEqual({ available: 3, active: 2, totalPages: 11 });
    expect(summaryFigures(dbs, new Set(["gone"]))).toEqual({ available: 3, active: 0, totalPages: 0 });
  });

  it("should toggle a selection per id and compare selections", () => {
    const one = toggled(new Set(["a"]), "b");
    expect([...one].sort()).toEqual(["a", "b"]);
    expect([...toggled(one, "a")]).toEqual(["b"]);
    expect(sameSelection(new Set(["a", "b"]), new Set(["b", "a"]))).toBe(true);
    expect(sameSelection(new Set(["a"]), new Set(["a", "b"]))).toBe(false);
  });

  it("should give the progress in percent, or null before anything is seen", () => {
    expect(syncPercent(run({ pagesSeen: 0, pagesDone: 0 }))).toBeNull();
    expect(syncPercent(run({ pagesSeen: 8, pagesDone: 3, pagesFailed: 1 }))).toBe(50);
    expect(syncPercent(run({ pagesSeen: 2, pagesDone: 3 }))).toBe(100);
  });

  it("should keep the newer run, and of the same run the finished or further one", () => {
    const a = run();
    const later = run({ id: "r2", startedAt: "2026-11-26T01:05:00.000Z" });
    expect(newerRun(a, later)).toBe(later);
    expect(newerRun(later, a)).toBe(later);
    const finished = run({ state: "succeeded", pagesDone: 10 });
    // a late progress event must not turn a finished run back into a running one
    expect(newerRun(finished, run({ pagesDone: 9 }))).toBe(finished);
    expect(newerRun(a, run({ pagesDone: 5 }))?.pagesDone).toBe(5);
    expect(newerRun(null, a)).toBe(a);
  });

  it("should read ?notion=connected|error and remove it (with reason) from the address", () => {
    expect(notionReturnOf("?notion=connected")).toEqual({ result: "connected" });
    expect(notionReturnOf("?notion=error&reason=not_configured")).toEqual({
      result: "error",
      notConfigured: true,
    });
    expect(notionReturnOf("?notion=error")).toEqual({ result: "error", notConfigured: false });
    expect(notionReturnOf("?notion=other")).toBeNull();
    expect(withoutNotionParam("?notion=connected")).toBe("");
    expect(withoutNotionParam("?a=1&notion=error&reason=x")).toBe("?a=1");
  });

  it("should link only http(s) addresses", () => {
    expect(safeHttpUrl("https://www.notion.so/Side-abc#blk")).toBe("https://www.notion.so/Side-abc#blk");
    expect(safeHttpUrl("javascript:alert(1)")).toBeNull();
    expect(safeHttpUrl("data:text/html,x")).toBeNull();
    expect(safeHttpUrl("not a url")).toBeNull();
    expect(safeHttpUrl(null)).toBeNull();
  });

  it("should render the score bar with its percentage, colour and accessible name", () => {
    const html = renderToStaticMarkup(
      <ScoreBar score={64} caption="Egnethed" label="Egnethed for Wiki: 64 %" />,
    );
    expect(html).toContain("64 %");
    expect(html).toContain('data-level="warning"');
    expect(html).toContain('aria-label="Egnethed for Wiki: 64 %"');
    expect(html).toContain('aria-valuenow="64"');
  });
});
