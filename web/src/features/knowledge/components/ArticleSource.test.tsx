import { renderToStaticMarkup } from "react-dom/server";
import { describe, expect, it } from "vitest";
import { ArticleSource } from "./ArticleSource";

describe("ArticleSource", () => {
  it("should say 'Fra Notion: <database>' and link the page in a new tab", () => {
    const html = renderToStaticMarkup(
      <ArticleSource
        source={{ kind: "notion", url: "https://www.notion.so/Side-abc", databaseTitle: "Procedurer" }}
      />,
    );
    expect(html).toContain("Fra Notion: Procedurer");
    expect(html).toContain('href="https://www.notion.so/Side-abc"');
    expect(html).toContain('rel="noopener noreferrer"');
  });

  it("should never turn a stored javascript: address into a link", () => {
    const html = renderToStaticMarkup(
      <ArticleSource source={{ kind: "notion", url: "javascript:alert(1)", databaseTitle: null }} />,
    );
    expect(html).toContain("Fra Notion");
    expect(html).not.toContain("href");
  });

  it("should call the sample folder 'Eksempelindhold'", () => {
    const html = renderToStaticMarkup(
      <ArticleSource source={{ kind: "sample", url: null, databaseTitle: null }} />,
    );
    expect(html).toContain("Eksempelindhold");
    expect(html).not.toContain("<a");
  });
});
