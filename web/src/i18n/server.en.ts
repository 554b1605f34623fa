/**
 * English for the texts the server sends to people. The server always answers in Danish (the customer's spec
 * fixes those texts), so the client translates them here, keyed by the server's exact Danish text. Sources (read
 * them when a server text changes): api/src/errors.ts, api/src/auth/auth.service.ts (authMessages),
 * api/src/auth/auth.rest.ts, api/src/users/*.ts, api/src/rest/*.ts, api/src/graphql/errors.ts and limits.ts.
 * The spec §5 validation messages (api/src/users/user.rules.ts) are translated through the validation.* keys of
 * en.ts instead. web/e2e/server-text.test.ts checks that every server text listed there has English here.
 */

/** extensions.code values that always carry the same text: translated by the code alone. */
export const serverCodesEn: Readonly<Record<string, string>> = {
  EMAIL_NOT_VERIFIED:
    "Your account has not been verified yet. Check your email and click the verification link.",
  INVALID_CREDENTIALS: "Invalid sign-in details",
  PAYLOAD_TOO_LARGE: "The request is too large",
  INTERNAL_SERVER_ERROR: "An unexpected error occurred. Please try again later.",
};

/** The server's exact Danish texts → English. */
export const serverTextsEn: Readonly<Record<string, string>> = {
  // api/src/errors.ts
  "Der opstod en uventet fejl. Prøv igen senere.": "An unexpected error occurred. Please try again later.",
  "Du skal være logget ind": "You must be signed in",
  "Du har ikke adgang til denne handling": "You do not have access to this action",
  "Ikke fundet": "Not found",
  "Din konto er ikke bekræftet endnu. Tjek din email og klik på bekræftelseslinket.":
    "Your account has not been verified yet. Check your email and click the verification link.",
  "Ugyldige login oplysninger": "Invalid sign-in details",
  "Linket er ugyldigt eller udløbet": "The link is invalid or has expired",
  "Forespørgslen er for stor": "The request is too large",

  // api/src/auth/auth.service.ts (authMessages)
  "Bruger oprettet. Tjek din email for at bekræfte din konto.":
    "User created. Check your email to verify your account.",
  "Der findes allerede en bruger med denne email": "A user with this email already exists",
  "Brugernavnet er allerede taget": "The username is already taken",
  "Din email er bekræftet. Du kan nu logge ind.": "Your email has been verified. You can now sign in.",
  "Bekræftelseslinket er ugyldigt eller udløbet": "The verification link is invalid or has expired",
  "Hvis kontoen findes og ikke er bekræftet, er der sendt en ny bekræftelsesemail.":
    "If the account exists and has not been verified, a new verification email has been sent.",
  "Hvis der findes en konto med denne email, er der sendt et link til at nulstille adgangskoden.":
    "If an account with this email exists, a link to reset the password has been sent.",
  "Nulstillingslinket er ugyldigt eller udløbet": "The reset link is invalid or has expired",
  "Din adgangskode er nulstillet. Du kan nu logge ind.": "Your password has been reset. You can now sign in.",
  "Nuværende adgangskode er forkert": "The current password is incorrect",

  // api/src/auth/auth.rest.ts
  "Du er logget ud": "You are signed out",
  "Din adgangskode er blevet ændret succesfuldt": "Your password has been changed successfully",

  // api/src/users/users.service.ts, users.rest.ts, preferences.service.ts
  "Admin-brugeren kan ikke slettes": "The admin user cannot be deleted",
  "Brugeren blev ikke fundet": "The user was not found",
  "Du kan ikke slette din egen konto her": "You cannot delete your own account here",
  "Kun administratorer har adgang": "Only administrators have access",
  "Brugeren er blevet fjernet fra systemet": "The user has been removed from the system",
  "Brugerens password er blevet opdateret": "The user's password has been updated",
  "Ugyldigt sprog (vælg da eller en)": "Invalid language (choose da or en)",
  "Ugyldigt tema (vælg light, dark eller system)": "Invalid theme (choose light, dark or system)",
  "Notifikationer skal være slået til eller fra": "Notifications must be turned on or off",
  "Søgningen må højst være 200 tegn": "The search may be at most 200 characters",

  // api/src/rest/*.ts, api/src/activity/activity.rest.ts
  "Ugyldig JSON i forespørgslen": "Invalid JSON in the request",
  "Ugyldig forespørgsel: forventede et JSON-objekt": "Invalid request: expected a JSON object",
  "Endpoint findes ikke": "Endpoint does not exist",
  "Ugyldigt tidsfilter": "Invalid time filter",
  "Ugyldigt handlingsfilter": "Invalid action filter",

  // api/src/graphql/errors.ts (GraphQL's own request errors)
  "Ugyldig GraphQL-forespørgsel": "Invalid GraphQL request",
  "Ugyldig forespørgsel": "Invalid request",
  "Ugyldigt input": "Invalid input",
};

function plural(n: number, one: string, many: string): string {
  return `${n} ${n === 1 ? one : many}`;
}

const WAIT_UNITS: Record<string, (n: number) => string> = {
  sekunder: (n) => plural(n, "second", "seconds"),
  minut: (n) => plural(n, "minute", "minutes"),
  minutter: (n) => plural(n, "minute", "minutes"),
};

/** Server texts with a variable part (a wait time, a limit, a name, a field), tried in order after the exact map. */
export const serverPatternsEn: readonly { pattern: RegExp; english: (m: RegExpExecArray) => string }[] = [
  // errors.ts tooManyRequests: `For mange forsøg. Prøv igen om ${formatWait(retryAfter)}.`
  {
    pattern: /^For mange forsøg\. Prøv igen om (\d+) (sekunder|minut|minutter)\.$/,
    english: (m) => `Too many attempts. Try again in ${WAIT_UNITS[m[2]](Number(m[1]))}.`,
  },
  // graphql/limits.ts
  {
    pattern: /^Forespørgslen er for dybt indlejret \(højst (\d+) niveauer\)$/,
    english: (m) => `The query is nested too deeply (at most ${m[1]} levels)`,
  },
  {
    pattern: /^Forespørgslen er for kompleks \(højst (\d+)\)$/,
    english: (m) => `The query is too complex (at most ${m[1]})`,
  },
  // auth.service.ts authMessages.welcome
  { pattern: /^Velkommen tilbage, (.+)!$/s, english: (m) => `Welcome back, ${m[1]}!` },
  // rest/validate.ts
  { pattern: /^Feltet "(.+)" skal være tekst$/, english: (m) => `The field "${m[1]}" must be text` },
  {
    pattern: /^Feltet "(.+)" skal være sand eller falsk$/,
    english: (m) => `The field "${m[1]}" must be true or false`,
  },
  { pattern: /^Feltet "(.+)" er for langt$/, english: (m) => `The field "${m[1]}" is too long` },
  // graphql/errors.ts and complexity.ts: a Danish prefix before GraphQL's own (English) detail
  {
    pattern: /^(Ugyldig GraphQL-forespørgsel|Ugyldig forespørgsel|Ugyldigt input): (.+)$/s,
    english: (m) => `${serverTextsEn[m[1]]}: ${m[2]}`,
  },
];
