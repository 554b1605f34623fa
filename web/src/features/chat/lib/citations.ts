/**
 * `[n]` citation markers in an answer become links to the cited article at the cited heading (a remark plugin,
 * so it works on the Markdown tree: markers inside code stay text, and nothing is ever parsed as HTML).
 */
import { articleHref } from "../../../lib/anchors";

export interface CitationTarget {
  number: number;
  articleId: string;
  title: string;
  headingPath: readonly string[];
  heading: string;
}

interface MdNode {
  type: string;
  value?: string;
  url?: string;
  title?: string;
  children?: MdNode[];
  data?: { hProperties?: Record<string, unknown> };
}

const MARKER = /\[(\d{1,3})\]/g;

/** "Title › Section" (or the title alone for an article's intro); a heading path that starts with the title keeps it once. */
export function citationLabel(c: Pick<CitationTarget, "title" | "heading">): string {
  if (!c.heading || c.heading === c.title) return c.title;
  return c.heading.startsWith(`${c.title} › `) ? c.heading : `${c.title} › ${c.heading}`;
}

function splitText(value: string, byNumber: Map<number, CitationTarget>): MdNode[] | null {
  MARKER.lastIndex = 0;
  if (!MARKER.test(value)) return null;
  MARKER.lastIndex = 0;
  const out: MdNode[] = [];
  let from = 0;
  for (const match of value.matchAll(MARKER)) {
    const citation = byNumber.get(Number(match[1]));
    if (!citation) continue;
    const at = match.index ?? 0;
    if (at > from) out.push({ type: "text", value: value.slice(from, at) });
    out.push({
      type: "link",
      url: articleHref(citation.articleId, citation.headingPath),
      title: citationLabel(citation),
      children: [{ type: "text", value: `[${citation.number}]` }],
      data: { hProperties: { dataCitation: String(citation.number) } },
    });
    from = at + match[0].length;
  }
  if (out.length === 0) return null;
  if (from < value.length) out.push({ type: "text", value: value.slice(from) });
  return out;
}

function walk(node: MdNode, byNumber: Map<number, CitationTarget>): void {
  if (!node.children || node.type === "link" || node.type === "linkReference") return;
  const next: MdNode[] = [];
  for (const child of node.children) {
    if (child.type === "text" && child.value) {
      const parts = splitText(child.value, byNumber);
      if (parts) {
        next.push(...parts);
        continue;
      }
    }
    walk(child, byNumber);
    next.push(child);
  }
  node.children = next;
}

/** The remark plugin: `remarkPlugins={[citationLinks(citations)]}`. Unknown numbers stay plain text. */
export function citationLinks(citations: readonly CitationTarget[]) {
  const byNumber = new Map(citations.map((c) => [c.number, c]));
  return () => (tree: MdNode) => {
    if (byNumber.size > 0) walk(tree, byNumber);
  };
}
