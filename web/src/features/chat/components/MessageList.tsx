import KeyboardArrowDownRoundedIcon from "@mui/icons-material/KeyboardArrowDownRounded";
import { Box, Button, CircularProgress, Fab } from "@mui/material";
import { useVirtualizer } from "@tanstack/react-virtual";
import { useCallback, useLayoutEffect, useRef, useState } from "react";
import { useT } from "../../../i18n/i18n";
import { LOAD_EARLIER_PX, STICK_TO_BOTTOM_PX } from "../constants";
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

/** the space above the first message, where "Vis tidligere beskeder" sits while there are earlier messages */
const PAD_TOP = 16;
const PAD_TOP_EARLIER = 64;

/**
 * The messages of a session, virtualized (only the rows in view are in the DOM, so thousands of messages stay
 * smooth). It opens at the newest message and follows a streaming answer, unless the reader has scrolled up.
 * The list holds the newest pages of the session: scrolling near the top (or the button there) loads the page
 * before, and the message being read stays where it was on the screen.
 */
export function MessageList({
  messages,
  rowKey = (m) => m.id,
  actions,
  busy,
  hasEarlier = false,
  loadingEarlier = false,
  onLoadEarlier,
}: {
  messages: Message[];
  /** a row's key (usePendingAnswer: the real message keeps the row of its stand-in); the id by default */
  rowKey?: (message: Message) => string;
  actions: MessageActions;
  /** an answer is being generated: edit, regenerate and switching wait */
  busy?: boolean;
  /** the list starts after the session's first message */
  hasEarlier?: boolean;
  loadingEarlier?: boolean;
  /** loads the page before the first message (useChatMessages.loadEarlier) */
  onLoadEarlier?: () => void;
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
    getItemKey: (i) => {
      const m = messages[i];
      return m ? rowKey(m) : i;
    },
    overscan: 6,
    paddingStart: hasEarlier ? PAD_TOP_EARLIER : PAD_TOP,
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

  // the message at the top of the view when an earlier page was asked for, how far below the top it was, and the
  // list's first message then (the page is in once that changes)
  const anchor = useRef<{ id: string; offset: number; first: string } | null>(null);
  const loadEarlier = () => {
    const el = scrollRef.current;
    const first = messages[0]?.id;
    if (!el || !onLoadEarlier || loadingEarlier || !first) return;
    const top = virtualizer.getVirtualItemForOffset(el.scrollTop);
    const id = top ? messages[top.index]?.id : undefined;
    anchor.current = id && top ? { id, offset: top.start - el.scrollTop, first } : null;
    // reading earlier messages: a page put above must not pull the view to the bottom
    stick.current = false;
    onLoadEarlier();
  };
  // once the earlier page is in, the anchored message goes back to where it was (rows above it measured later
  // keep it there too: the virtualizer adjusts the scroll position for rows above the view)
  useLayoutEffect(() => {
    const at = anchor.current;
    if (!at) return;
    if (messages[0]?.id === at.first) {
      // still loading, or the page did not fit (nothing was added)
      if (!loadingEarlier) anchor.current = null;
      return;
    }
    anchor.current = null;
    const index = messages.findIndex((m) => m.id === at.id);
    const start = index === -1 ? undefined : virtualizer.getOffsetForIndex(index, "start")?.[0];
    // written directly: the rows then rendered around it are measured at the new offset, and those above the
    // view move it by what they grew
    if (start !== undefined && scrollRef.current) scrollRef.current.scrollTop = start - at.offset;
  }, [messages, loadingEarlier, virtualizer]);

  const onScroll = () => {
    const el = scrollRef.current;
    if (!el) return;
    if (hasEarlier && el.scrollTop < LOAD_EARLIER_PX) loadEarlier();
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
        sx={{
          height: "100%",
          overflowY: "auto",
          overscrollBehavior: "contain",
          // focusable to scroll by keyboard: the ring goes inside, the chat card clips what is outside
          "&:focus-visible": { outlineOffset: -3 },
        }}
      >
        {/* dynamic sizes go in style, not sx: sx would add a CSS class per distinct value */}
        <div style={{ height: totalSize, position: "relative", width: "100%" }}>
          {hasEarlier && (
            <Box
              sx={{
                position: "absolute",
                top: 12,
                left: 0,
                right: 0,
                display: "flex",
                justifyContent: "center",
              }}
            >
              <Button
                size="small"
                variant="outlined"
                onClick={loadEarlier}
                disabled={loadingEarlier}
                // the label says it loads: the spinner is decoration
                startIcon={loadingEarlier ? <CircularProgress size={14} aria-hidden /> : undefined}
                // while loading it is a status to read, not a greyed-out control: secondary text, not 38 % grey
                sx={{ "&.Mui-disabled": { color: "text.secondary", borderColor: "divider" } }}
                data-testid="load-earlier"
              >
                {loadingEarlier ? t("chat.loadingEarlier") : t("chat.showEarlier")}
              </Button>
            </Box>
          )}
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
