import KeyboardArrowDownRoundedIcon from "@mui/icons-material/KeyboardArrowDownRounded";
import { Box, Fab } from "@mui/material";
import { useVirtualizer } from "@tanstack/react-virtual";
import { useCallback, useLayoutEffect, useRef, useState } from "react";
import { useT } from "../../../i18n/i18n";
import { STICK_TO_BOTTOM_PX } from "../constants";
import type { Message } from "../lib/messages";
import { type MessageActions, MessageItem } from "./MessageItem";

const ROW_SX = {
  position: "absolute",
  top: 0,
  left: 0,
  width: "100%",
  px: { xs: 1.5, md: 3 },
  py: 1,
} as const;

/**
 * The messages of a session, virtualized (only the rows in view are in the DOM, so thousands of messages stay
 * smooth). It opens at the newest message and follows a streaming answer, unless the reader has scrolled up.
 */
export function MessageList({
  messages,
  actions,
  busy,
}: {
  messages: Message[];
  actions: MessageActions;
  /** an answer is being generated: edit, regenerate and switching wait */
  busy?: boolean;
}) {
  const t = useT();
  const scrollRef = useRef<HTMLDivElement>(null);
  const stick = useRef(true);
  const [atBottom, setAtBottom] = useState(true);

  const estimate = (i: number) => (messages[i]?.role === "user" ? 72 : 180);
  const virtualizer = useVirtualizer({
    count: messages.length,
    getScrollElement: () => scrollRef.current,
    estimateSize: estimate,
    // open at the newest message: the first render already lays out the last rows, not the first ones
    initialOffset: () => messages.reduce((sum, _m, i) => sum + estimate(i), 0),
    getItemKey: (i) => messages[i]?.id ?? i,
    overscan: 6,
    paddingStart: 16,
    paddingEnd: 16,
  });

  const scrollToBottom = useCallback(() => {
    const el = scrollRef.current;
    if (el) el.scrollTop = el.scrollHeight;
  }, []);

  const totalSize = virtualizer.getTotalSize();
  // follow new messages, streamed tokens and rows being measured while the reader is at the bottom
  // biome-ignore lint/correctness/useExhaustiveDependencies: messages and totalSize are the triggers
  useLayoutEffect(() => {
    if (stick.current) scrollToBottom();
  }, [messages, totalSize, scrollToBottom]);

  const onScroll = () => {
    const el = scrollRef.current;
    if (!el) return;
    const bottom = el.scrollHeight - el.scrollTop - el.clientHeight <= STICK_TO_BOTTOM_PX;
    stick.current = bottom;
    if (bottom !== atBottom) setAtBottom(bottom);
  };

  const items = virtualizer.getVirtualItems();
  return (
    <Box sx={{ position: "relative", flex: 1, minHeight: 0 }}>
      <Box
        ref={scrollRef}
        onScroll={onScroll}
        role="log"
        aria-label={t("chat.messageList")}
        data-testid="message-list"
        tabIndex={0}
        sx={{ height: "100%", overflowY: "auto", overscrollBehavior: "contain", outline: "none" }}
      >
        {/* dynamic sizes go in style, not sx: sx would add a CSS class per distinct value */}
        <div style={{ height: totalSize, position: "relative", width: "100%" }}>
          {items.map((item) => {
            const message = messages[item.index];
            if (!message) return null;
            return (
              <Box
                key={item.key}
                data-index={item.index}
                ref={virtualizer.measureElement}
                style={{ transform: `translateY(${item.start}px)` }}
                sx={ROW_SX}
              >
                <Box sx={{ maxWidth: 820, mx: "auto" }}>
                  <MessageItem
                    message={message}
                    actions={actions}
                    isLast={item.index === messages.length - 1}
                    busy={busy}
                  />
                </Box>
              </Box>
            );
          })}
        </div>
      </Box>
      {!atBottom && (
        <Fab
          size="small"
          color="primary"
          aria-label={t("chat.scrollToBottom")}
          onClick={() => {
            stick.current = true;
            setAtBottom(true);
            scrollToBottom();
          }}
          sx={{ position: "absolute", right: 16, bottom: 12 }}
        >
          <KeyboardArrowDownRoundedIcon />
        </Fab>
      )}
    </Box>
  );
}
