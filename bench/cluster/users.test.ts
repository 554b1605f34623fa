import { describe, expect, it } from "vitest";
import { pickAction } from "./users";

describe("pickAction (bench:cluster --mix-actions)", () => {
  it("should keep the issue's shares with every kind: chat below 0.3, search below 0.65, browse above", () => {
    const all = ["chat", "search", "browse"] as const;
    expect([0, 0.299, 0.3, 0.649, 0.65, 0.999].map((p) => pickAction(p, all))).toEqual([
      "chat",
      "chat",
      "search",
      "search",
      "browse",
      "browse",
    ]);
  });

  it("should pick only the kinds given, in proportion to their shares", () => {
    expect(pickAction(0, ["search", "browse"])).toBe("search");
    expect(pickAction(0.49, ["search", "browse"])).toBe("search");
    expect(pickAction(0.5, ["search", "browse"])).toBe("browse");
    expect([0, 0.5, 0.999].map((p) => pickAction(p, ["browse"]))).toEqual(["browse", "browse", "browse"]);
  });
});
