import { renderToStaticMarkup } from "react-dom/server";
import { describe, expect, it } from "vitest";
import { headingAnchor } from "../../../lib/anchors";
import { ArticleContent } from "./ArticleContent";

const CONTENT = "# Klager over afgørelser\n\nIndledning.\n\n## Klagefristen\n\nFire uger.";

describe("ArticleContent", () => {
  it("should not show the title a second time, but keep its anchor for citations", () => {
    const html = renderToStaticMarkup(<ArticleContent content={CONTENT} title="Klager over afgørelser" />);
    expect(html).not.toContain("Klager over afgørelser");
    expect(html).toContain(`id="${headingAnchor("Klager over afgørelser")}"`);
    expect(html).toContain("Indledning.");
    expect(html).toContain("Klagefristen");
  });

  it("should show an opening heading that differs from the title", () => {
    const html = renderToStaticMarkup(<ArticleContent content={CONTENT} title="Noget andet" />);
    expect(html).toContain(">Klager over afgørelser<");
  });
});
