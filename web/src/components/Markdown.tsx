import { Box, Link } from "@mui/material";
import type { ComponentProps } from "react";
import ReactMarkdown, { type Components, type Options } from "react-markdown";
import remarkGfm from "remark-gfm";

/**
 * Renders Markdown from the server (answers, article text) inertly, whatever it contains. The server already
 * stores Markdown without HTML; this component does not rely on it:
 * - raw HTML is never rendered (`skipHtml`; no rehype-raw),
 * - links keep only http(s), mailto and relative targets (`javascript:`, `data:`, … are dropped, the text stays)
 *   and open in a new tab with rel="noopener noreferrer",
 * - images are never loaded (a remote image could track the reader): their alt text is shown, as a link to the
 *   image when its address is safe.
 */

const SAFE_SCHEME = /^(?:https?|mailto)$/i;

/**
 * The URL if it is http(s), mailto or relative; otherwise null (the attribute is dropped). Same reading of
 * "has a scheme" as react-markdown's default: a `:` before any `/`, `?` or `#`.
 */
export function safeUrl(url: string): string | null {
  const colon = url.indexOf(":");
  if (colon === -1) return url;
  for (const c of ["/", "?", "#"]) {
    const at = url.indexOf(c);
    if (at !== -1 && at < colon) return url;
  }
  return SAFE_SCHEME.test(url.slice(0, colon)) ? url : null;
}

/** A link from Markdown (exported so an overriding `a`, e.g. for citations, can use it for other links). */
export function MarkdownLink({
  href,
  children,
  node: _node,
  ...rest
}: ComponentProps<"a"> & { node?: unknown }) {
  // a dropped (unsafe) target leaves the text, not a dead link
  if (!href) return <span>{children}</span>;
  // in-page anchors (GFM footnotes) stay in the page
  const external = !href.startsWith("#");
  return (
    <Link
      {...rest}
      href={href}
      {...(external ? { target: "_blank", rel: "noopener noreferrer" } : {})}
      underline="hover"
    >
      {children}
    </Link>
  );
}

function MarkdownImage({ src, alt }: ComponentProps<"img">) {
  const text = alt?.trim() || (typeof src === "string" ? src : "") || "billede";
  if (typeof src !== "string" || !src) return <span>{text}</span>;
  return <MarkdownLink href={src}>{text}</MarkdownLink>;
}

const SAFE_COMPONENTS: Components = { a: MarkdownLink, img: MarkdownImage };

export interface MarkdownProps {
  /** the Markdown source */
  children: string;
  /**
   * Renderers for elements, merged over the safe defaults (e.g. an `a` that shows citation links). Images cannot
   * be overridden; an `a` receives the href after the URL check.
   */
  components?: Omit<Components, "img">;
  /** extra remark plugins, run after GFM (e.g. one turning `[n]` citation markers into links) */
  remarkPlugins?: NonNullable<Options["remarkPlugins"]>;
}

export function Markdown({ children, components, remarkPlugins = [] }: MarkdownProps) {
  return (
    <Box
      className="markdown"
      sx={{
        overflowWrap: "anywhere",
        "& p, & ul, & ol, & blockquote, & pre, & table": { my: 1.25 },
        "& h1, & h2, & h3, & h4": { mt: 2, mb: 1, lineHeight: 1.3 },
        "& h1": { fontSize: "1.4rem" },
        "& h2": { fontSize: "1.2rem" },
        "& h3, & h4": { fontSize: "1.05rem" },
        "& ul, & ol": { pl: 3 },
        "& blockquote": { borderLeft: 3, borderColor: "divider", pl: 1.5, mx: 0, color: "text.secondary" },
        "& code": {
          fontFamily: "monospace",
          fontSize: "0.9em",
          bgcolor: "action.hover",
          px: 0.5,
          borderRadius: 0.5,
        },
        "& pre": { overflowX: "auto", bgcolor: "action.hover", p: 1.5, borderRadius: 1 },
        "& pre code": { bgcolor: "transparent", p: 0 },
        "& table": { borderCollapse: "collapse", display: "block", overflowX: "auto" },
        "& th, & td": { border: 1, borderColor: "divider", px: 1, py: 0.5, textAlign: "left" },
      }}
    >
      <ReactMarkdown
        remarkPlugins={[remarkGfm, ...remarkPlugins]}
        skipHtml
        urlTransform={safeUrl}
        components={{ ...components, ...SAFE_COMPONENTS, ...(components?.a ? { a: components.a } : {}) }}
      >
        {children}
      </ReactMarkdown>
    </Box>
  );
}
