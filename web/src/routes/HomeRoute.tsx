import { ChatScreen } from "../features/chat/components/ChatScreen";
import { NotionStatusCard } from "../features/notion";

/** / — the chat (its own chunk: /login does not load it), with the Notion card after Notion's OAuth flow. */
export default function HomeRoute() {
  return (
    <>
      <NotionStatusCard />
      <ChatScreen />
    </>
  );
}
