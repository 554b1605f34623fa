/** Danish e-mails (text + HTML). Links point at the web app (APP_URL). */

export interface MailContent {
  subject: string;
  text: string;
  html: string;
  /** the one link the recipient should follow (logged in the outbox mode) */
  link: string;
}

function escapeHtml(s: string): string {
  return s.replace(
    /[&<>"']/g,
    (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" })[c]!,
  );
}

function layout(
  title: string,
  paragraphs: string[],
  button: { href: string; label: string },
  after: string[],
): string {
  const p = (t: string) => `<p style="margin:0 0 16px">${t}</p>`;
  return `<!doctype html>
<html lang="da"><head><meta charset="utf-8"><title>${escapeHtml(title)}</title></head>
<body style="font-family:Arial,Helvetica,sans-serif;color:#1f2937;max-width:560px;margin:0 auto;padding:24px">
<h1 style="font-size:20px;margin:0 0 16px">${escapeHtml(title)}</h1>
${paragraphs.map(p).join("\n")}
<p style="margin:24px 0"><a href="${escapeHtml(button.href)}" style="background:#1d4ed8;color:#fff;padding:12px 20px;border-radius:6px;text-decoration:none">${escapeHtml(button.label)}</a></p>
<p style="margin:0 0 16px;font-size:13px">Virker knappen ikke, så kopiér dette link ind i din browser:<br><a href="${escapeHtml(button.href)}">${escapeHtml(button.href)}</a></p>
${after.map(p).join("\n")}
<p style="margin:24px 0 0;font-size:13px;color:#6b7280">Venlig hilsen<br>Vidensbank</p>
</body></html>`;
}

/**
 * "Hej <name>" only for a name the reader chose: a verified account's (AccountLinks decides). Anyone may
 * register any free address, so a name given at registration is a stranger's text until the address is verified.
 */
function greeting(name: string | null): string {
  return name ? `Hej ${name}` : "Hej";
}

/** The e-mail with the link that verifies a new account (valid 24 hours). */
export function verificationMail(appUrl: string, token: string): MailContent {
  const link = `${appUrl}/verify-email?token=${encodeURIComponent(token)}`;
  const subject = "Bekræft din email til Vidensbank";
  const text = [
    "Hej",
    "",
    "Tak for din oprettelse i Vidensbank. Bekræft din email ved at åbne dette link:",
    "",
    link,
    "",
    "Linket udløber om 24 timer. Har du ikke oprettet en konto, kan du se bort fra denne email.",
    "",
    "Venlig hilsen",
    "Vidensbank",
  ].join("\n");
  const html = layout(
    "Bekræft din email",
    ["Hej", "Tak for din oprettelse i Vidensbank. Bekræft din email ved at klikke på knappen."],
    { href: link, label: "Bekræft email" },
    ["Linket udløber om 24 timer. Har du ikke oprettet en konto, kan du se bort fra denne email."],
  );
  return { subject, text, html, link };
}

/** The e-mail with the link that sets a new password (valid 1 hour). */
export function passwordResetMail(appUrl: string, name: string | null, token: string): MailContent {
  const link = `${appUrl}/reset-password?token=${encodeURIComponent(token)}`;
  const subject = "Nulstil din adgangskode til Vidensbank";
  const text = [
    greeting(name),
    "",
    "Vi har modtaget en anmodning om at nulstille din adgangskode. Åbn dette link for at vælge en ny:",
    "",
    link,
    "",
    "Linket udløber om 1 time og kan kun bruges én gang. Har du ikke bedt om det, kan du se bort fra denne email.",
    "",
    "Venlig hilsen",
    "Vidensbank",
  ].join("\n");
  const html = layout(
    "Nulstil din adgangskode",
    [escapeHtml(greeting(name)), "Vi har modtaget en anmodning om at nulstille din adgangskode."],
    { href: link, label: "Vælg ny adgangskode" },
    [
      "Linket udløber om 1 time og kan kun bruges én gang. Har du ikke bedt om det, kan du se bort fra denne email.",
    ],
  );
  return { subject, text, html, link };
}
