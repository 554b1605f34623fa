import { ChatScreen } from "../features/chat/components/ChatScreen";

/** / — the chat (its own chunk: /login does not load it). */
export default function HomeRoute() {
  return <ChatScreen />;
}
