/**
 * Notion blocks → the article line format (spec §2): '# ', '## ', '### ' headings, '- ' bullets (indented two
 * spaces per nesting level), '1. ' numbered items, blank lines between paragraphs. Children are fetched by the
 * caller (notion.sync.ts) down to MAX_DEPTH; deeper blocks are left out. Unknown block types with text keep
 * their text; others are skipped. Every heading remembers its block id, so a citation can link to
 * `<page url>#<block id>`.
 */
import { asRichText, type Block, plain } from "./notion.guards";

/** Nesting levels of children rendered below a page's top blocks. */
export const MAX_DEPTH = 5;

export interface RenderBlock extends Block {
  children?: RenderBlock[];
}

export interface Rendered {
  lines: string[];
  /** heading text → block id (without dashes, as Notion's anchors write it) */
  anchors: Array<{ heading: string; blockId: string }>;
  unknownTypes: string[];
}

function text(b: Block): string {
  return plain(asRichText(b.data.rich_text)).replace(/\r?\n/g, " ").trim();
}

function caption(b: Block): string {
  return plain(asRichText(b.data.caption)).trim();
}

function fileUrl(b: Block): string {
  const d = b.data as Record<string, { url?: unknown } | unknown>;
  const ext = d.external as { url?: unknown } | undefined;
  const file = d.file as { url?: unknown } | undefined;
  const url = ext?.url ?? file?.url ?? d.url;
  return typeof url === "string" ? url : "";
}

export function renderBlocks(blocks: RenderBlock[]): Rendered {
  const out: Rendered = { lines: [], anchors: [], unknownTypes: [] };
  walk(blocks, 0, out);
  while (out.lines.length > 0 && out.lines[out.lines.length - 1] === "") out.lines.pop();
  return out;
}

function blank(out: Rendered): void {
  if (out.lines.length > 0 && out.lines[out.lines.length - 1] !== "") out.lines.push("");
}

function walk(blocks: RenderBlock[], depth: number, out: Rendered): void {
  const indent = "  ".repeat(depth);
  let number = 0;
  for (const b of blocks) {
    number = b.type === "numbered_list_item" ? number + 1 : 0;
    const t = text(b);
    switch (b.type) {
      case "heading_1":
      case "heading_2":
      case "heading_3": {
        const level = Number(b.type.slice(-1));
        blank(out);
        out.lines.push(`${"#".repeat(level)} ${t}`);
        out.anchors.push({ heading: t, blockId: b.id.replace(/-/g, "") });
        break;
      }
      case "paragraph":
      case "quote":
      case "callout":
      case "toggle":
        if (t) out.lines.push(`${indent}${t}`);
        else blank(out);
        break;
      case "bulleted_list_item":
        out.lines.push(`${indent}- ${t}`);
        break;
      case "numbered_list_item":
        out.lines.push(`${indent}${number}. ${t}`);
        break;
      case "to_do":
        out.lines.push(`${indent}- [${b.data.checked === true ? "x" : " "}] ${t}`);
        break;
      case "code":
        for (const line of plain(asRichText(b.data.rich_text)).split(/\r?\n/))
          out.lines.push(`${indent}${line}`);
        break;
      case "divider":
        blank(out);
        break;
      case "child_page":
      case "child_database":
        if (typeof b.data.title === "string" && b.data.title) out.lines.push(`${indent}${b.data.title}`);
        break;
      case "table_row": {
        const cells = Array.isArray(b.data.cells) ? b.data.cells.map((c) => plain(asRichText(c)).trim()) : [];
        out.lines.push(`${indent}${cells.join(" | ")}`);
        break;
      }
      case "image":
      case "file":
      case "pdf":
      case "video":
      case "bookmark":
      case "embed":
      case "link_preview": {
        const label = caption(b) || fileUrl(b);
        if (label) out.lines.push(`${indent}${label}`);
        break;
      }
      case "table":
      case "column_list":
      case "column":
      case "synced_block":
      case "table_of_contents":
      case "breadcrumb":
        break;
      default:
        out.unknownTypes.push(b.type);
        if (t) out.lines.push(`${indent}${t}`);
    }
    if (b.children?.length) {
      const nested = ["bulleted_list_item", "numbered_list_item", "to_do", "toggle", "quote", "callout"];
      walk(b.children, nested.includes(b.type) ? depth + 1 : depth, out);
    }
    if (b.type === "paragraph" && t) blank(out);
  }
}
