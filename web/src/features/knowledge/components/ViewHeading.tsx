import { Typography } from "@mui/material";
import { type ReactNode, useEffect, useRef } from "react";

/**
 * The h1 of a knowledge view. It takes the focus when a view opens after a click inside the screen, so keyboard and
 * screen-reader users land on the new content (not on the first page load, which starts at the top as usual).
 */
export function ViewHeading({
  id,
  children,
  focusOnMount = true,
}: {
  id?: string;
  children: ReactNode;
  focusOnMount?: boolean;
}) {
  const ref = useRef<HTMLHeadingElement>(null);
  useEffect(() => {
    if (focusOnMount && document.activeElement && document.activeElement !== document.body) {
      ref.current?.focus({ preventScroll: true });
    }
  }, [focusOnMount]);
  return (
    <Typography
      ref={ref}
      id={id}
      variant="h1"
      tabIndex={-1}
      sx={{
        fontSize: { xs: "1.6rem", md: "2rem" },
        overflowWrap: "anywhere",
        "&:focus": { outline: "none" },
      }}
    >
      {children}
    </Typography>
  );
}
