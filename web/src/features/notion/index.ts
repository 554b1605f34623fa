/** The Notion feature's public components (the admin panel for /admin and /admin/notion, the chat page's card). */
export { NotionConfigPanel } from "./components/NotionConfigPanel";
export { NotionStatusCard } from "./components/NotionStatusCard";
