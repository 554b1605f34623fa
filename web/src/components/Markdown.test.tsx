import { renderToStaticMarkup } from "react-dom/server";
import { describe, expect, it } from "vitest";
import { Markdown, MarkdownLink, safeUrl } from "./Markdown";

const render = (markdown: string, props: Partial<Parameters<typeof Markdown>[0]> = {}) =>
  renderToStaticMarkup(<Markdown {...props}>{markdown}</Markdown>);

/** The rendered HTML without the component's own <style> (emotion), so only the Markdown's output is checked. */
const body = (html: string) => html.replace(/<style[^>]*>[\s\S]*?<\/style>/g, "");

/** The tags in rendered HTML (React escapes text, so every `<` that is left starts a real tag). */
const tags = (html: string) => [...html.matchAll(/<([a-z][a-z0-9-]*)([^>]*)>/gi)];

/** Nothing in the output can run script or load a remote resource. */
function expectInert(html: string, input: string): void {
  for (const [tag, name, attributes] of tags(body(html))) {
    expect(name, input).toMatch(
      /^(div|p|a|span|em|strong|code|pre|h[1-6]|ul|ol|li|blockquote|table|thead|tbody|tr|th|td|del|br|hr|input|section|sup)$/i,
    );
    for (const [, attr, value] of attributes.matchAll(/\s([^\s=]+)="([^"]*)"/g)) {
      expect(attr, `${tag} from ${input}`).not.toMatch(/^on/i);
      expect(value, `${tag} from ${input}`).not.toMatch(/^\s*(javascript|data|vbscript):/i);
    }
  }
}

const HOSTILE = [
  "<script>alert(1)</script>",
  '<img src=x onerror="alert(1)">',
  "<scr<script>ipt>alert(1)</script>",
  "<svg/onload=alert(1)>",
  '<a href="javascript:alert(1)">klik</a>',
  "<!-- <script>alert(1)</script> -->",
  "<div>\n<iframe src=https://ond.example></iframe>\n</div>",
  "[klik](javascript:alert(1))",
  "[klik](JaVaScRiPt:alert(1))",
  "[klik](java\tscript:alert(1))",
  "[klik](data:text/html;base64,PHNjcmlwdD5hbGVydCgxKTwvc2NyaXB0Pg==)",
  "[klik][ref]\n\n[ref]: javascript:alert(1)",
  "<javascript:alert(1)>",
  "![pixel](https://tracker.example/p.png)",
  "![](https://tracker.example/p.png)",
  '![x" onerror="alert(1)](https://x.example/p.png)',
  "![x](javascript:alert(1))",
  "&lt;script&gt;alert(1)&lt;/script&gt;",
  "```html\n<script>alert(1)</script>\n```",
];

describe("Markdown", () => {
  it("should render hostile input inertly: no HTML, no script links, no images", () => {
    for (const input of HOSTILE) expectInert(render(input), input);
  });

  it("should show text from raw HTML and code as text, escaped", () => {
    expect(body(render("`<script>alert(1)</script>`"))).toContain("&lt;script&gt;alert(1)&lt;/script&gt;");
    expect(body(render("&lt;b&gt;fed&lt;/b&gt;"))).toContain("&lt;b&gt;fed&lt;/b&gt;");
    // the link text of a dropped target stays, without a link
    const dropped = body(render("[klik her](javascript:alert(1))"));
    expect(dropped).toContain("klik her");
    expect(dropped).not.toContain("<a");
  });

  it("should render an image as a link to it, never loading it", () => {
    const html = body(render("![Organisationsdiagram](https://intra.example/org.png)"));
    expect(html).not.toContain("<img");
    expect(html).toMatch(/<a [^>]*href="https:\/\/intra.example\/org.png"[^>]*>Organisationsdiagram<\/a>/);
    expect(body(render("![Diagram](javascript:alert(1))"))).toMatch(/<span>Diagram<\/span>/);
  });

  it("should open links in a new tab without giving the page access to the opener", () => {
    const html = body(
      render(
        "Se [borger.dk](https://www.borger.dk), [kontakt](mailto:info@firma.dk) og [artikel](/knowledge?article=1).",
      ),
    );
    for (const href of ["https://www.borger.dk", "mailto:info@firma.dk", "/knowledge?article=1"]) {
      expect(html).toMatch(new RegExp(`<a [^>]*href="${href.replace(/[?.]/g, "\\$&")}"[^>]*>`));
    }
    for (const a of html.match(/<a [^>]*>/g) ?? []) {
      expect(a).toContain('target="_blank"');
      expect(a).toContain('rel="noopener noreferrer"');
    }
  });

  it("should render ordinary Markdown readably: headings, lists, tables, code, links, a < b, æøå", () => {
    const html = body(
      render(
        [
          "# Ferie og fravær",
          "## Regler for æ, ø og å",
          "- Punkt ét med **fed** tekst",
          "- Hvis a < b og 3 > 2",
          "",
          "1. Første",
          "2. Anden",
          "",
          "| Kolonne | Værdi |",
          "|---|---|",
          "| Løn | 3 > 2 |",
          "",
          "Inline `kode` og https://www.retsinformation.dk",
          "",
          "```",
          "if (a < b) {}",
          "```",
        ].join("\n"),
      ),
    );
    expect(html).toContain("<h1>Ferie og fravær</h1>");
    expect(html).toContain("<h2>Regler for æ, ø og å</h2>");
    expect(html).toContain("<strong>fed</strong>");
    expect(html).toContain("Hvis a &lt; b og 3 &gt; 2");
    expect(html).toMatch(/<ol>\s*<li>Første<\/li>/);
    expect(html).toMatch(/<table>[\s\S]*<th>Kolonne<\/th>[\s\S]*<td>3 &gt; 2<\/td>/);
    expect(html).toContain("<code>kode</code>");
    expect(html).toMatch(/<a [^>]*href="https:\/\/www.retsinformation.dk"/);
    expect(html).toContain("<pre><code>if (a &lt; b) {}\n</code></pre>");
  });

  it("should let the chat turn [n] citation markers into links through the hooks", () => {
    type Node = { type: string; value?: string; url?: string; children?: Node[] };
    /** a tiny remark plugin: "[2]" in text becomes a link to #kilde-2 */
    const citations = () => (tree: Node) => {
      const visit = (node: Node) => {
        if (!node.children) return;
        node.children = node.children.flatMap((child) => {
          if (child.type !== "text" || !child.value) {
            visit(child);
            return [child];
          }
          return child.value.split(/(\[\d+\])/).map((part) => {
            const n = /^\[(\d+)\]$/.exec(part)?.[1];
            return n
              ? { type: "link", url: `#kilde-${n}`, children: [{ type: "text", value: n }] }
              : { type: "text", value: part };
          });
        });
      };
      visit(tree);
    };
    const html = body(
      render("Ferie optjenes løbende [2]. Se [borger.dk](https://www.borger.dk).", {
        remarkPlugins: [citations],
        components: {
          a: ({ href, children }) =>
            href?.startsWith("#kilde-") ? (
              <button type="button" data-citation={href.slice(7)}>
                {children}
              </button>
            ) : (
              <MarkdownLink href={href}>{children}</MarkdownLink>
            ),
        },
      }),
    );
    expect(html).toContain('<button type="button" data-citation="2">2</button>');
    expect(html).toMatch(/<a [^>]*href="https:\/\/www.borger.dk"[^>]*rel="noopener noreferrer"/);
  });

  it("should keep only http(s), mailto and relative URLs", () => {
    for (const ok of [
      "https://x.dk",
      "http://x.dk",
      "mailto:a@b.dk",
      "/knowledge",
      "#kilde-1",
      "?q=1",
      "a/b:c",
    ]) {
      expect(safeUrl(ok), ok).toBe(ok);
    }
    for (const bad of [
      "javascript:alert(1)",
      "JAVASCRIPT:x",
      " javascript:x",
      "data:text/html,x",
      "vbscript:x",
      "file:///etc",
    ]) {
      expect(safeUrl(bad), bad).toBeNull();
    }
  });
});
