import BookmarkAddedOutlinedIcon from "@mui/icons-material/BookmarkAddedOutlined";
import ChatOutlinedIcon from "@mui/icons-material/ChatOutlined";
import HistoryRoundedIcon from "@mui/icons-material/HistoryRounded";
import IosShareRoundedIcon from "@mui/icons-material/IosShareRounded";
import LinkOffRoundedIcon from "@mui/icons-material/LinkOffRounded";
import LoginRoundedIcon from "@mui/icons-material/LoginRounded";
import PersonAddAltRoundedIcon from "@mui/icons-material/PersonAddAltRounded";
import SearchRoundedIcon from "@mui/icons-material/SearchRounded";
import SendRoundedIcon from "@mui/icons-material/SendRounded";
import type { ReactNode } from "react";

export type ActivityColor = "primary" | "success" | "info" | "secondary" | "warning" | "default";

/** Icon and colour by action (spec §2, §3): login, register, chat, message, bookmark, search; a default otherwise. */
const STYLES: Record<string, { icon: ReactNode; color: ActivityColor }> = {
  login: { icon: <LoginRoundedIcon />, color: "primary" },
  register: { icon: <PersonAddAltRoundedIcon />, color: "success" },
  chat: { icon: <ChatOutlinedIcon />, color: "info" },
  message: { icon: <SendRoundedIcon />, color: "secondary" },
  bookmark: { icon: <BookmarkAddedOutlinedIcon />, color: "warning" },
  search: { icon: <SearchRoundedIcon />, color: "info" },
  chat_share: { icon: <IosShareRoundedIcon />, color: "success" },
  chat_share_revoke: { icon: <LinkOffRoundedIcon />, color: "default" },
};
const DEFAULT_STYLE = { icon: <HistoryRoundedIcon />, color: "default" as ActivityColor };

export function activityStyle(action: string): { icon: ReactNode; color: ActivityColor } {
  return Object.hasOwn(STYLES, action) ? STYLES[action] : DEFAULT_STYLE;
}
