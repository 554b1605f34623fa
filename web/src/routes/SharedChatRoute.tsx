import { useParams } from "react-router-dom";
import { SharedChatScreen } from "../features/shares/components/SharedChatScreen";

/** /shared/:shareId — a shared conversation, read-only (signed in: RequireAuth sends others to login and back). */
export default function SharedChatRoute() {
  const { shareId = "" } = useParams();
  return <SharedChatScreen key={shareId} shareId={shareId} />;
}
