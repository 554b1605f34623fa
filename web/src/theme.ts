import { alpha, createTheme, type Theme } from "@mui/material/styles";

export type ThemePreference = "light" | "dark" | "system";
export type PaletteMode = "light" | "dark";

/** Resolves the user's theme preference against the operating system's setting. */
export function resolveMode(preference: ThemePreference, systemPrefersDark: boolean): PaletteMode {
  if (preference === "system") return systemPrefersDark ? "dark" : "light";
  return preference;
}

// Colours chosen for WCAG AA: body text ≥ 7:1 and secondary text, links and errors ≥ 4.5:1 on both backgrounds.
const palettes = {
  light: {
    primary: { main: "#1f4e79", light: "#3b6fa0", dark: "#143656", contrastText: "#ffffff" },
    secondary: { main: "#0f6b63", contrastText: "#ffffff" },
    error: { main: "#c62828" },
    success: { main: "#2e7d32" },
    info: { main: "#0b5cad" },
    background: { default: "#f3f5f9", paper: "#ffffff" },
    text: { primary: "#17212f", secondary: "#4a5566" },
    divider: "#dde2ea",
  },
  dark: {
    primary: { main: "#8ab4f8", light: "#b3cefb", dark: "#5e8fd8", contrastText: "#0b1220" },
    secondary: { main: "#5fd3c6", contrastText: "#06201d" },
    error: { main: "#ff8a80" },
    success: { main: "#81c784" },
    info: { main: "#8ab4f8" },
    background: { default: "#0e131a", paper: "#161d27" },
    text: { primary: "#e7ecf3", secondary: "#aeb8c6" },
    divider: "#2a3443",
  },
} as const;

/** The MUI theme for one palette mode. */
export function createAppTheme(mode: PaletteMode): Theme {
  const p = palettes[mode];
  return createTheme({
    palette: { mode, ...p },
    shape: { borderRadius: 10 },
    typography: {
      fontFamily:
        '"Inter", "Segoe UI", system-ui, -apple-system, Roboto, "Helvetica Neue", Arial, sans-serif',
      h1: { fontSize: "2rem", fontWeight: 700, letterSpacing: "-0.02em" },
      h2: { fontSize: "1.5rem", fontWeight: 700, letterSpacing: "-0.01em" },
      h3: { fontSize: "1.2rem", fontWeight: 650 },
      button: { textTransform: "none", fontWeight: 600 },
    },
    components: {
      MuiCssBaseline: {
        styleOverrides: {
          // A clearly visible keyboard focus ring on everything focusable, in both themes.
          ":focus-visible": { outline: `3px solid ${p.primary.main}`, outlineOffset: 2 },
          "a:focus-visible": { borderRadius: 4 },
          body: { minWidth: 320 },
          // a heading often says stored text (a title, a name, the searched words): a long Danish compound word
          // breaks inside the heading's box instead of widening its column or the page
          "h1, h2, h3, h4, h5, h6": { overflowWrap: "anywhere" },
        },
      },
      MuiButtonBase: { defaultProps: { disableRipple: false } },
      MuiButton: {
        styleOverrides: {
          root: {
            borderRadius: 8,
            "&.Mui-focusVisible": { outline: `3px solid ${p.primary.main}`, outlineOffset: 2 },
          },
        },
      },
      MuiIconButton: {
        styleOverrides: {
          root: { "&.Mui-focusVisible": { outline: `3px solid ${p.primary.main}`, outlineOffset: 2 } },
        },
      },
      // a clickable card gets the same ring as every other control (MUI's own cue is a faint grey overlay); inside
      // its edge, as the card clips what is outside
      MuiCardActionArea: {
        styleOverrides: {
          root: { "&.Mui-focusVisible": { outline: `3px solid ${p.primary.main}`, outlineOffset: -3 } },
        },
      },
      // the admin panel's tabs: the ring instead of MUI's grey focus ripple alone; inset, as the tab strip clips
      MuiTab: {
        styleOverrides: {
          root: {
            "&.Mui-focusVisible": {
              outline: `3px solid ${p.primary.main}`,
              outlineOffset: -3,
              borderRadius: 8,
            },
          },
        },
      },
      MuiCard: {
        defaultProps: { variant: "outlined" },
        styleOverrides: {
          root: {
            borderColor: p.divider,
            boxShadow:
              mode === "light"
                ? `0 1px 2px ${alpha("#0b1a33", 0.06)}, 0 4px 16px ${alpha("#0b1a33", 0.05)}`
                : "none",
          },
        },
      },
      // In dark, MUI's standard alert background (its colour darkened 90 %) is the page's own near-black, so an
      // info box such as the Notion page's had no visible edge; a 14 % tint of the colour shows the box.
      MuiAlert: {
        styleOverrides: {
          root: ({ ownerState, theme }) => {
            const color = ownerState.color ?? ownerState.severity ?? "success";
            if (mode !== "dark" || (ownerState.variant ?? "standard") !== "standard") return {};
            return { backgroundColor: alpha(theme.palette[color].main, 0.14) };
          },
        },
      },
      MuiLink: { defaultProps: { underline: "hover" }, styleOverrides: { root: { fontWeight: 500 } } },
      MuiTextField: { defaultProps: { fullWidth: true } },
      // a placeholder longer than a narrow field ends in "…" instead of being cut mid-word
      MuiInputBase: { styleOverrides: { input: { textOverflow: "ellipsis" } } },
    },
  });
}
