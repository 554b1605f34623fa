/**
 * The one catalogue of texts the server sends to people, keyed by id, in Danish and English. The server puts the
 * Danish text in REST's `message` and GraphQL's `message` (the spec fixes those texts byte for byte) and the key
 * and parameters beside it (AppError, GraphQL `extensions.messageKey` / `messageParams`); the web app shows the
 * text for the user's language by key. Placeholders: `{name}` inserts the parameter as it is, `{name:number}`
 * formats a number for the locale (da: 8.000, en: 8,000). Both languages of a key use the same placeholders
 * (messages.test.ts checks it). To add a text: add a key here with da and en, then use the key.
 */

export type Locale = "da" | "en";

export interface CatalogueEntry {
  readonly da: string;
  readonly en: string;
}

/** a session's title until it is named (`chat.untitled`; the activity entries of an untitled session's share say it) */
const UNTITLED = { da: "Ny chat", en: "New chat" } as const;

export const messages = {
  // ---- generic errors (api/src/errors.ts)
  "errors.internal": {
    da: "Der opstod en uventet fejl. Prøv igen senere.",
    en: "An unexpected error occurred. Please try again later.",
  },
  "errors.unauthenticated": { da: "Du skal være logget ind", en: "You must be signed in" },
  "errors.forbidden": {
    da: "Du har ikke adgang til denne handling",
    en: "You do not have access to this action",
  },
  "errors.adminOnly": { da: "Kun administratorer har adgang", en: "Only administrators have access" },
  "errors.notFound": { da: "Ikke fundet", en: "Not found" },
  "errors.emailNotVerified": {
    da: "Din konto er ikke bekræftet endnu. Tjek din email og klik på bekræftelseslinket.",
    en: "Your account has not been verified yet. Check your email and click the verification link.",
  },
  "errors.invalidCredentials": { da: "Ugyldige login oplysninger", en: "Invalid sign-in details" },
  "errors.invalidToken": { da: "Linket er ugyldigt eller udløbet", en: "The link is invalid or has expired" },
  // Danish says "1 sekunder" (today's text, kept); English needs the singular
  "errors.tooManyAttemptsSecond": {
    da: "For mange forsøg. Prøv igen om 1 sekunder.",
    en: "Too many attempts. Try again in 1 second.",
  },
  "errors.tooManyAttemptsSeconds": {
    da: "For mange forsøg. Prøv igen om {seconds} sekunder.",
    en: "Too many attempts. Try again in {seconds} seconds.",
  },
  "errors.tooManyAttemptsMinute": {
    da: "For mange forsøg. Prøv igen om 1 minut.",
    en: "Too many attempts. Try again in 1 minute.",
  },
  "errors.tooManyAttemptsMinutes": {
    da: "For mange forsøg. Prøv igen om {minutes} minutter.",
    en: "Too many attempts. Try again in {minutes} minutes.",
  },
  "errors.payloadTooLarge": { da: "Forespørgslen er for stor", en: "The request is too large" },

  // ---- account rules (user.rules.ts; spec §5)
  "rules.emailInvalid": { da: "Ugyldig email format", en: "Invalid email format" },
  "rules.emailDomain": {
    da: "Kun @{domain} email adresser er tilladt",
    en: "Only @{domain} email addresses are allowed",
  },
  "rules.usernameMin": {
    da: "Brugernavn skal være mindst 3 tegn",
    en: "Username must be at least 3 characters",
  },
  "rules.usernameMax": {
    da: "Brugernavn må højst være 50 tegn",
    en: "Username may be at most 50 characters",
  },
  "rules.passwordMin": {
    da: "Password skal være mindst 6 tegn",
    en: "Password must be at least 6 characters",
  },
  "rules.passwordMax": {
    da: "Password må højst være 256 tegn",
    en: "Password may be at most 256 characters",
  },
  "rules.passwordRequired": { da: "Password er påkrævet", en: "Password is required" },
  "rules.nameMin": { da: "Navn skal være mindst 2 tegn", en: "Name must be at least 2 characters" },
  "rules.nameMax": { da: "Navn må højst være 100 tegn", en: "Name may be at most 100 characters" },
  "rules.nameChars": {
    da: "Navn må ikke indeholde linjeskift eller usynlige styretegn",
    en: "Name must not contain line breaks or invisible control characters",
  },
  "rules.usernameChars": {
    da: "Brugernavn må ikke indeholde linjeskift eller usynlige styretegn",
    en: "Username must not contain line breaks or invisible control characters",
  },
  "rules.passwordsMismatch": { da: "Passwords matcher ikke", en: "Passwords do not match" },
  "rules.currentPasswordRequired": {
    da: "Nuværende adgangskode er påkrævet",
    en: "Current password is required",
  },
  "rules.newPasswordMin": {
    da: "Ny adgangskode skal være mindst 6 tegn",
    en: "New password must be at least 6 characters",
  },
  "rules.confirmNewPasswordRequired": { da: "Bekræft ny adgangskode", en: "Confirm the new password" },
  "rules.newPasswordsMismatch": { da: "Adgangskoderne matcher ikke", en: "The passwords do not match" },

  // ---- account flows (api/src/auth)
  "auth.registered": {
    da: "Bruger oprettet. Tjek din email for at bekræfte din konto.",
    en: "User created. Check your email to verify your account.",
  },
  "auth.emailTaken": {
    da: "Der findes allerede en bruger med denne email",
    en: "A user with this email already exists",
  },
  "auth.usernameTaken": { da: "Brugernavnet er allerede taget", en: "The username is already taken" },
  "auth.verified": {
    da: "Din email er bekræftet. Du kan nu logge ind.",
    en: "Your email has been verified. You can now sign in.",
  },
  "auth.verificationInvalid": {
    da: "Bekræftelseslinket er ugyldigt eller udløbet",
    en: "The verification link is invalid or has expired",
  },
  "auth.resendSent": {
    da: "Hvis kontoen findes og ikke er bekræftet, er der sendt en ny bekræftelsesemail.",
    en: "If the account exists and has not been verified, a new verification email has been sent.",
  },
  "auth.forgotSent": {
    da: "Hvis der findes en konto med denne email, er der sendt et link til at nulstille adgangskoden.",
    en: "If an account with this email exists, a link to reset the password has been sent.",
  },
  "auth.resetInvalid": {
    da: "Nulstillingslinket er ugyldigt eller udløbet",
    en: "The reset link is invalid or has expired",
  },
  "auth.resetDone": {
    da: "Din adgangskode er nulstillet. Du kan nu logge ind.",
    en: "Your password has been reset. You can now sign in.",
  },
  "auth.currentPasswordWrong": {
    da: "Nuværende adgangskode er forkert",
    en: "The current password is incorrect",
  },
  "auth.welcome": { da: "Velkommen tilbage, {name}!", en: "Welcome back, {name}!" },
  "auth.loggedOut": { da: "Du er logget ud", en: "You are signed out" },
  "auth.passwordChanged": {
    da: "Din adgangskode er blevet ændret succesfuldt",
    en: "Your password has been changed successfully",
  },

  // ---- users and preferences (api/src/users)
  "users.adminProtected": { da: "Admin-brugeren kan ikke slettes", en: "The admin user cannot be deleted" },
  "users.notFound": { da: "Brugeren blev ikke fundet", en: "The user was not found" },
  "users.notSelf": {
    da: "Du kan ikke slette din egen konto her",
    en: "You cannot delete your own account here",
  },
  "users.searchTooLong": {
    da: "Søgningen må højst være {max} tegn",
    en: "The search may be at most {max} characters",
  },
  "users.deleted": {
    da: "Brugeren er blevet fjernet fra systemet",
    en: "The user has been removed from the system",
  },
  "users.passwordUpdated": {
    da: "Brugerens password er blevet opdateret",
    en: "The user's password has been updated",
  },
  "preferences.saved": { da: "Dine indstillinger er blevet gemt", en: "Your settings have been saved" },
  "preferences.language": {
    da: "Ugyldigt sprog (vælg da eller en)",
    en: "Invalid language (choose da or en)",
  },
  "preferences.theme": {
    da: "Ugyldigt tema (vælg light, dark eller system)",
    en: "Invalid theme (choose light, dark or system)",
  },
  "preferences.notifications": {
    da: "Notifikationer skal være slået til eller fra",
    en: "Notifications must be turned on or off",
  },

  // ---- activity log (api/src/activity)
  "activity.searchTooLong": {
    da: "Søgningen må højst være {max} tegn",
    en: "The search may be at most {max} characters",
  },
  "activity.actionInvalid": { da: "Ugyldigt handlingsfilter", en: "Invalid action filter" },
  "activity.timeInvalid": { da: "Ugyldigt tidsfilter", en: "Invalid time filter" },
  "activity.offsetInvalid": {
    da: "Ugyldig side (start mellem 0 og {max})",
    en: "Invalid page (start between 0 and {max})",
  },
  "activity.limitInvalid": { da: "Ugyldigt antal (1-{max})", en: "Invalid count (1-{max})" },
  // activity-log entries (api/src/activity/activity.messages.ts): the Danish text is the stored description, which
  // the admin search filters on and the CLI prints; parameters that are user data (a name, an e-mail, a search, a
  // title) are shown as text
  "log.login": { da: "{name} loggede ind", en: "{name} signed in" },
  "log.logout": { da: "{name} loggede ud", en: "{name} signed out" },
  "log.register": { da: "Ny bruger registreret: {name}", en: "New user registered: {name}" },
  "log.verifyEmail": { da: "Email bekræftet: {email}", en: "Email verified: {email}" },
  "log.passwordReset": {
    da: "{name} nulstillede sin adgangskode",
    en: "{name} reset their password",
  },
  "log.passwordChange": { da: "{name} ændrede sin adgangskode", en: "{name} changed their password" },
  "log.adminCreateUser": {
    da: "Administrator oprettede brugeren {email}",
    en: "Administrator created the user {email}",
  },
  "log.adminCreateUserCli": {
    da: "Administrator oprettede brugeren {email} (CLI)",
    en: "Administrator created the user {email} (CLI)",
  },
  "log.adminDeleteUser": {
    da: "Administrator slettede brugeren {email}",
    en: "Administrator deleted the user {email}",
  },
  "log.adminResetPassword": {
    da: "Administrator nulstillede adgangskoden for {email}",
    en: "Administrator reset the password of {email}",
  },
  "log.chat": { da: "Bruger startede en ny chat", en: "User started a new chat" },
  "log.message": {
    da: "Bruger sendte en besked til AI-assistenten",
    en: "User sent a message to the AI assistant",
  },
  "log.search": { da: '{name} søgte efter "{query}"', en: '{name} searched for "{query}"' },
  "log.bookmarkAdded": {
    da: '{name} gemte artiklen "{title}"',
    en: '{name} bookmarked the article "{title}"',
  },
  "log.bookmarkRemoved": {
    da: '{name} fjernede bogmærket "{title}"',
    en: '{name} removed the bookmark "{title}"',
  },
  "log.chatShare": {
    da: '{name} delte samtalen "{title}"',
    en: '{name} shared the conversation "{title}"',
  },
  "log.chatShareRevoke": {
    da: '{name} tilbagekaldte delingen af "{title}"',
    en: '{name} revoked the share of "{title}"',
  },
  "log.chatShareRevokeOther": {
    da: '{name} tilbagekaldte en andens deling af "{title}"',
    en: '{name} revoked someone else\'s share of "{title}"',
  },
  // the same of an untitled conversation (stored title NEW_SESSION_TITLE): its title in the reader's language
  "log.chatShareUntitled": {
    da: `{name} delte samtalen "${UNTITLED.da}"`,
    en: `{name} shared the conversation "${UNTITLED.en}"`,
  },
  "log.chatShareRevokeUntitled": {
    da: `{name} tilbagekaldte delingen af "${UNTITLED.da}"`,
    en: `{name} revoked the share of "${UNTITLED.en}"`,
  },
  "log.chatShareRevokeOtherUntitled": {
    da: `{name} tilbagekaldte en andens deling af "${UNTITLED.da}"`,
    en: `{name} revoked someone else's share of "${UNTITLED.en}"`,
  },
  // the counts as plain numbers, as the log has always written them; the English puts each count after its word
  // ("pages: 1"), so it reads right for 1 too (the catalogue has no plural forms; the Danish is the spec's)
  "log.notionSync": {
    da: "Notion synkroniseret: {pages} sider, {failed} fejl, {removed} fjernet",
    en: "Notion synced — pages: {pages}, failed: {failed}, removed: {removed}",
  },
  "log.notionConnect": { da: "Notion forbundet: {workspace}", en: "Notion connected: {workspace}" },
  "log.notionDisconnect": {
    da: "Notion-forbindelsen blev afbrudt",
    en: "The Notion connection was ended",
  },
  "log.notionConfig": {
    da: "{count} databaser konfigureret som videnskilder for alle brugere",
    en: "Databases set up as knowledge sources for all users: {count}",
  },

  // ---- knowledge and bookmarks (api/src/knowledge, api/src/bookmarks)
  // the one-line description of a category (api/src/knowledge/categories.ts): the four of the spec, and the default
  "categories.economy": {
    da: "Budget, regnskab, betalinger, udlæg og kontingent",
    en: "Budget, accounts, payments, expenses and membership fees",
  },
  "categories.procedures": {
    da: "Faste arbejdsgange: møder, referater, GDPR og databrud",
    en: "Standing routines: meetings, minutes, GDPR and data breaches",
  },
  "categories.roles": {
    da: "Hvem gør hvad: ansvar, beføjelser og stedfortrædere",
    en: "Who does what: responsibilities, powers and deputies",
  },
  "categories.caseHandling": {
    da: "Sager fra modtagelse til afgørelse, frister, klager og aktindsigt",
    en: "Cases from receipt to decision, deadlines, complaints and access to documents",
  },
  "categories.other": { da: "Øvrige artikler", en: "Other articles" },
  "knowledge.notFound": { da: "Artiklen blev ikke fundet", en: "The article was not found" },
  "knowledge.queryNotText": { da: "Søgningen skal være tekst", en: "The search must be text" },
  "knowledge.queryTooLong": {
    da: "Søgningen er for lang (højst {max} tegn)",
    en: "The search is too long (at most {max} characters)",
  },
  "knowledge.categoryInvalid": {
    da: "Ugyldig kategori (en tekst på højst 200 tegn)",
    en: "Invalid category (a text of at most 200 characters)",
  },
  "knowledge.adminOnly": {
    da: "Kun administratorer kan redigere artikler",
    en: "Only administrators can edit articles",
  },
  "knowledge.titleRequired": { da: "Titel er påkrævet", en: "Title is required" },
  "knowledge.titleTooLong": {
    da: "Titlen må højst være 200 tegn",
    en: "The title may be at most 200 characters",
  },
  "knowledge.contentRequired": { da: "Indhold er påkrævet", en: "Content is required" },
  "knowledge.contentTooLong": {
    da: "Indholdet må højst være 200.000 tegn",
    en: "The content may be at most 200,000 characters",
  },
  "knowledge.categoryRequired": { da: "Kategori er påkrævet", en: "Category is required" },
  "knowledge.categoryTooLong": {
    da: "Kategorien må højst være 100 tegn",
    en: "The category may be at most 100 characters",
  },
  "knowledge.subcategoryTooLong": {
    da: "Underkategorien må højst være 100 tegn",
    en: "The subcategory may be at most 100 characters",
  },
  "knowledge.tagsInvalid": {
    da: "Tags skal være en liste af korte tekster (højst 30, hver højst 50 tegn)",
    en: "Tags must be a list of short texts (at most 30, each at most 50 characters)",
  },
  "bookmarks.notBookmarked": {
    da: "Artiklen er ikke gemt som bogmærke",
    en: "The article is not bookmarked",
  },
  "bookmarks.articleRequired": {
    da: "Vælg den artikel, der skal gemmes (articleId mangler)",
    en: "Choose the article to bookmark (articleId is missing)",
  },

  // ---- chat (api/src/chat)
  // a session's title until it is named: stored in Danish (NEW_SESSION_TITLE), shown and searched in both languages
  "chat.untitled": UNTITLED,
  "chat.sessionNotFound": { da: "Samtalen findes ikke", en: "The conversation does not exist" },
  "chat.messageNotFound": { da: "Beskeden findes ikke", en: "The message does not exist" },
  "chat.sessionIdRequired": { da: "Angiv sessionId", en: "Give a sessionId" },
  "chat.pageLimitInvalid": {
    da: "limit skal være et helt tal (højst {max})",
    en: "limit must be a whole number (at most {max})",
  },
  "chat.titleTooLong": {
    da: "Titlen må højst være {max} tegn",
    en: "The title may be at most {max} characters",
  },
  "chat.titleEmpty": { da: "Titlen må ikke være tom", en: "The title must not be empty" },
  "chat.onlyUserRole": {
    da: "Kun brugerbeskeder kan sendes (role skal være 'user')",
    en: "Only user messages can be sent (role must be 'user')",
  },
  "chat.tooManyAnswers": {
    da: "Du har allerede {count} svar undervejs. Vent, til et af dem er færdigt, eller stop det, og prøv igen.",
    en: "You already have {count} answers in progress. Wait until one of them is done, or stop it, and try again.",
  },
  "chat.notRetryable": {
    da: "Kun et svar, der fejlede eller blev stoppet, kan genereres igen",
    en: "Only an answer that failed or was stopped can be generated again",
  },
  "chat.notAnswer": {
    da: "Kun assistentens svar kan stoppes, genereres igen eller bedømmes",
    en: "Only the assistant's answers can be stopped, generated again or rated",
  },
  "chat.answerInProgress": {
    da: "Svaret er stadig undervejs. Stop det, før du retter spørgsmålet eller genererer et nyt svar.",
    en: "The answer is still in progress. Stop it before you edit the question or generate a new answer.",
  },
  "chat.sessionLimit": {
    da: "Du har {max:number} samtaler, som er det højeste antal. Slet nogle gamle samtaler for at starte en ny.",
    en: "You have {max:number} conversations, which is the most allowed. Delete some old conversations to start a new one.",
  },
  "chat.sessionFull": {
    da: "Samtalen er blevet for lang. Start en ny samtale for at fortsætte.",
    en: "The conversation has become too long. Start a new conversation to continue.",
  },
  "chat.tooManyBranches": {
    da: "Der kan højst være {max} udgaver af samme spørgsmål eller svar",
    en: "There can be at most {max} versions of the same question or answer",
  },
  "chat.feedbackRating": {
    da: "Bedømmelsen skal være 'up' eller 'down'",
    en: "The rating must be 'up' or 'down'",
  },
  "chat.feedbackTooLong": {
    da: "Kommentaren må højst være 2.000 tegn",
    en: "The comment may be at most 2,000 characters",
  },
  "chat.searchTooLong": {
    da: "Søgningen må højst være 200 tegn",
    en: "The search may be at most 200 characters",
  },
  "chat.interrupted": {
    da: "Svaret blev afbrudt, fordi serveren genstartede. Prøv igen.",
    en: "The answer was interrupted because the server restarted. Please try again.",
  },
  "chat.sessionDeleted": { da: "Samtalen blev slettet.", en: "The conversation was deleted." },
  "chat.shuttingDown": {
    da: "Serveren lukker ned. Prøv igen om lidt.",
    en: "The server is shutting down. Please try again shortly.",
  },
  "chat.messageEmpty": {
    da: "Beskeden er tom. Skriv et spørgsmål, før du sender.",
    en: "The message is empty. Write a question before you send.",
  },
  "chat.messageTooLong": {
    da: "Beskeden er for lang: højst {max:number} tegn er tilladt (din besked har {length:number} tegn). Forkort den, og prøv igen.",
    en: "The message is too long: at most {max:number} characters are allowed (your message has {length:number}). Shorten it and try again.",
  },
  "chat.messageNotText": { da: "Beskeden skal være tekst.", en: "The message must be text." },
  "chat.retrievalFailed": {
    da: "Vidensbanken kunne ikke gennemsøges lige nu, så spørgsmålet blev ikke besvaret. Prøv igen om lidt.",
    en: "The knowledge base could not be searched just now, so the question was not answered. Please try again shortly.",
  },
  "chat.emptyAnswer": {
    da: "AI-assistenten returnerede et tomt svar. Prøv igen.",
    en: "The AI assistant returned an empty answer. Please try again.",
  },
  // the scope of a question (api/src/chat/chat.scope.ts)
  "chat.scopeKind": {
    da: "Afgrænsningen skal være ALL, CATEGORY, ARTICLES eller BOOKMARKS",
    en: "The scope must be ALL, CATEGORY, ARTICLES or BOOKMARKS",
  },
  "chat.scopeCategoryUnknown": { da: "Kategorien findes ikke", en: "The category does not exist" },
  "chat.scopeArticlesEmpty": { da: "Vælg mindst én artikel", en: "Choose at least one article" },
  "chat.scopeTooManyArticles": {
    da: "Vælg højst {max:number} artikler",
    en: "Choose at most {max:number} articles",
  },
  "chat.scopeArticleNotFound": {
    da: "En af de valgte artikler findes ikke",
    en: "One of the chosen articles does not exist",
  },
  "chat.scopeAll": { da: "Alle artikler", en: "All articles" },
  "chat.scopeCategory": { da: "Kategori: {category}", en: "Category: {category}" },
  "chat.scopeArticle": { da: "Artikel: {title}", en: "Article: {title}" },
  "chat.scopeArticles": {
    da: "{count:number} artikler: {titles}",
    en: "{count:number} articles: {titles}",
  },
  "chat.scopeBookmarks": { da: "Mine bogmærker", en: "My bookmarks" },
  "chat.scopeSearchedIn": { da: "Søgt i: {scope}", en: "Searched in: {scope}" },

  // ---- shared conversations (api/src/shares)
  "shares.notFound": {
    da: "Den delte samtale findes ikke eller er ikke længere delt",
    en: "The shared conversation does not exist or is no longer shared",
  },
  "shares.tooMany": {
    da: "Du kan højst have {max:number} delte samtaler. Tilbagekald en deling, og prøv igen.",
    en: "You can have at most {max:number} shared conversations. Revoke a share and try again.",
  },
  "shares.empty": {
    da: "Samtalen har ingen færdige svar at dele endnu",
    en: "The conversation has no finished answers to share yet",
  },
  "shares.tooLarge": {
    da: "Samtalen er for lang til at blive delt",
    en: "The conversation is too long to share",
  },

  // ---- the language model (api/src/llm): stored as a failed answer's error text
  "llm.unavailable": {
    da: "AI-assistenten er ikke tilgængelig i øjeblikket. Prøv igen om lidt.",
    en: "The AI assistant is not available at the moment. Please try again shortly.",
  },
  "llm.rateLimitedWait": {
    da: "AI-assistenten får for mange forespørgsler lige nu. Prøv igen om {seconds} sekunder.",
    en: "The AI assistant is getting too many requests right now. Please try again in {seconds} seconds.",
  },
  "llm.rateLimited": {
    da: "AI-assistenten får for mange forespørgsler lige nu. Vent et øjeblik, og prøv igen.",
    en: "The AI assistant is getting too many requests right now. Wait a moment and try again.",
  },
  "llm.timeoutFirstToken": {
    da: "AI-assistenten svarede ikke i tide. Prøv igen.",
    en: "The AI assistant did not answer in time. Please try again.",
  },
  "llm.timeoutOverall": {
    da: "Svaret tog for lang tid og blev afbrudt. Prøv igen.",
    en: "The answer took too long and was stopped. Please try again.",
  },
  "llm.streamBroken": {
    da: "Forbindelsen til AI-assistenten blev afbrudt, mens svaret blev skrevet. Prøv igen.",
    en: "The connection to the AI assistant was lost while the answer was being written. Please try again.",
  },
  "llm.noEmbeddingModel": {
    da: "Der er ikke konfigureret en embedding-model.",
    en: "No embedding model is configured.",
  },

  // ---- Notion (api/src/notion)
  "notion.tokenInvalid": {
    da: "Notion afviste nøglen. Tjek integrationsnøglen og prøv igen.",
    en: "Notion refused the token. Check the integration token and try again.",
  },
  "notion.tokenRequired": { da: "Angiv en Notion-integrationsnøgle", en: "Give a Notion integration token" },
  "notion.tokenTooLong": {
    da: "Notion-nøglen må højst være {max} tegn",
    en: "The Notion token may be at most {max} characters",
  },
  "notion.notConnected": { da: "Notion er ikke forbundet", en: "Notion is not connected" },
  "notion.unavailable": {
    da: "Notion svarer ikke lige nu. Prøv igen senere.",
    en: "Notion is not answering right now. Please try again later.",
  },
  "notion.oauthNotConfigured": {
    da: "Notion-login er ikke sat op (NOTION_CLIENT_ID og NOTION_CLIENT_SECRET mangler)",
    en: "Notion sign-in is not set up (NOTION_CLIENT_ID and NOTION_CLIENT_SECRET are missing)",
  },
  "notion.oauthStateInvalid": {
    da: "Notion-forbindelsen kunne ikke bekræftes (linket er udløbet). Prøv igen.",
    en: "The Notion connection could not be confirmed (the link expired). Please try again.",
  },
  "notion.databasesInvalid": {
    da: "selectedDatabases skal være en liste af højst {max} database-id'er",
    en: "selectedDatabases must be a list of at most {max} database ids",
  },
  "notion.unexpectedResponse": {
    da: "Notion sendte et svar i et uventet format",
    en: "Notion sent an answer in an unexpected format",
  },
  "notion.pageFailed": {
    da: "Siden kunne ikke hentes fra Notion",
    en: "The page could not be fetched from Notion",
  },
  // why a sync or a page failed (stored on the run by its reason: notion-failures.ts)
  "notion.syncUnauthorized": {
    da: "Notion afviste nøglen (ugyldig eller tilbagekaldt)",
    en: "Notion refused the token (invalid or revoked)",
  },
  "notion.syncUnexpectedShape": {
    da: "Notion sendte et uventet svar (feltet {field} mangler eller har en anden form)",
    en: "Notion sent an unexpected answer (the field {field} is missing or has another shape)",
  },
  "notion.syncUnreachable": {
    da: "Notion svarede ikke: kunne ikke nås (netværksfejl eller tidsgrænse)",
    en: "Notion did not answer: it could not be reached (network error or time limit)",
  },
  "notion.syncPageGone": {
    da: "Siden findes ikke længere i Notion",
    en: "The page no longer exists in Notion",
  },
  "notion.syncRateLimited": {
    da: "Notion svarede ikke: for mange forespørgsler, også efter ventetid ({detail})",
    en: "Notion did not answer: too many requests, even after waiting ({detail})",
  },
  "notion.syncNotionError": {
    da: "Notion svarede ikke: fejl hos Notion ({detail})",
    en: "Notion did not answer: an error at Notion ({detail})",
  },
  "notion.syncRejected": {
    da: "Notion afviste forespørgslen ({detail})",
    en: "Notion refused the request ({detail})",
  },
  "notion.syncUnexpected": {
    da: "Uventet fejl under synkroniseringen",
    en: "Unexpected error during the sync",
  },
  "notion.syncSomeDatabasesFailed": {
    da: "Nogle databaser kunne ikke hentes fra Notion",
    en: "Some databases could not be fetched from Notion",
  },
  // the run's stored text stays English (notion-failures.ts ALREADY_RUNNING_STORED_TEXT); readers get this
  "notion.syncAlreadyRunning": {
    da: "En anden synkronisering er i gang",
    en: "Another sync is running",
  },

  // ---- REST input and the HTTP edge (api/src/rest)
  "rest.endpointNotFound": { da: "Endpoint findes ikke", en: "Endpoint does not exist" },
  "rest.notObject": {
    da: "Ugyldig forespørgsel: forventede et JSON-objekt",
    en: "Invalid request: expected a JSON object",
  },
  "rest.fieldNotText": { da: 'Feltet "{field}" skal være tekst', en: 'The field "{field}" must be text' },
  "rest.fieldNotBoolean": {
    da: 'Feltet "{field}" skal være sand eller falsk',
    en: 'The field "{field}" must be true or false',
  },
  "rest.fieldTooLong": { da: 'Feltet "{field}" er for langt', en: 'The field "{field}" is too long' },
  "http.badRequest": { da: "Ugyldig forespørgsel", en: "Invalid request" },
  "http.malformedHttp": { da: "Ugyldig HTTP-forespørgsel", en: "Invalid HTTP request" },
  "http.badPath": { da: "Ugyldig adresse: forkert %-kodning", en: "Invalid address: wrong %-encoding" },
  "http.badHost": { da: "Ugyldig Host-header", en: "Invalid Host header" },
  "http.invalidJson": { da: "Ugyldig JSON i forespørgslen", en: "Invalid JSON in the request" },
  "http.jsonTooDeep": {
    da: "JSON i forespørgslen er for dybt indlejret (højst {max} niveauer)",
    en: "The JSON in the request is nested too deeply (at most {max} levels)",
  },
  "http.bodyNotEncodedAsDeclared": {
    da: "Forespørgslens indhold passer ikke til dens Content-Encoding",
    en: "The request body does not match its Content-Encoding",
  },
  "http.encodingUnsupported": {
    da: "Forespørgslens Content-Encoding understøttes ikke (brug gzip, deflate, br eller ingen)",
    en: "The request's Content-Encoding is not supported (use gzip, deflate, br or none)",
  },
  "http.charsetUnsupported": {
    da: "Forespørgslens tegnsæt understøttes ikke (brug UTF-8)",
    en: "The request's character set is not supported (use UTF-8)",
  },
  "http.unsupportedMediaType": {
    da: "Forespørgslens indholdstype understøttes ikke",
    en: "The request's content type is not supported",
  },
  "http.sizeMismatch": {
    da: "Forespørgslens længde passer ikke til Content-Length",
    en: "The request's length does not match Content-Length",
  },
  "http.aborted": { da: "Forespørgslen blev afbrudt", en: "The request was aborted" },
  "http.headersTooLarge": {
    da: "Forespørgslens adresse eller headers er for store",
    en: "The request's address or headers are too large",
  },
  "http.timeout": {
    da: "Forespørgslen blev ikke sendt færdig i tide",
    en: "The request was not sent completely in time",
  },

  // ---- GraphQL limits and request errors (api/src/graphql)
  "graphql.depth": {
    da: "Forespørgslen er for dybt indlejret (højst {max} niveauer)",
    en: "The query is nested too deeply (at most {max} levels)",
  },
  "graphql.complexity": {
    da: "Forespørgslen er for kompleks (højst {max})",
    en: "The query is too complex (at most {max})",
  },
  "graphql.selections": {
    da: "Forespørgslen har for mange felter, når fragmenterne er foldet ud (højst {max})",
    en: "The query has too many fields once its fragments are expanded (at most {max})",
  },
  "graphql.tokens": {
    da: "Forespørgslen er for lang (højst {max} symboler)",
    en: "The query is too long (at most {max} tokens)",
  },
  "graphql.resultCost": {
    da: "Forespørgslen kan give et for stort svar (anslået over {max}); bed om færre felter eller brug limit",
    en: "The query could give too large an answer (estimated over {max}); ask for fewer fields or use limit",
  },
  "graphql.responseBytes": {
    da: "Svaret er for stort (over {mb} MB); bed om færre felter eller brug limit",
    en: "The answer is too large (over {mb} MB); ask for fewer fields or use limit",
  },
  // GraphQL's own request errors: a Danish prefix before graphql-js's (English) detail
  "graphql.parseFailed": {
    da: "Ugyldig GraphQL-forespørgsel: {detail}",
    en: "Invalid GraphQL request: {detail}",
  },
  "graphql.invalidRequest": { da: "Ugyldig forespørgsel: {detail}", en: "Invalid request: {detail}" },
  "graphql.invalidInput": { da: "Ugyldigt input: {detail}", en: "Invalid input: {detail}" },
  "graphql.subscriptionOverHttp": {
    da: "Ugyldig forespørgsel: abonnementer (subscription) kræver en websocket-forbindelse til /graphql",
    en: "Invalid request: subscriptions need a websocket connection to /graphql",
  },

  // ---- websocket limits (api/src/graphql/ws.limits.ts); close reasons must stay within 123 bytes
  "ws.tooManySockets": {
    da: "For mange åbne forbindelser for din bruger (højst {max}). Luk nogle faner.",
    en: "Too many open connections for your user (at most {max}). Close some tabs.",
  },
  "ws.tooManyUnauthenticated": {
    da: "For mange forbindelser uden login fra din adresse (højst {max}). Prøv igen om lidt.",
    en: "Too many connections without sign-in from your address (at most {max}). Try again shortly.",
  },
  "ws.tooManySubscriptions": {
    da: "For mange samtidige abonnementer på denne forbindelse (højst {max}). Afslut nogle, før du starter flere.",
    en: "Too many simultaneous subscriptions on this connection (at most {max}). End some before starting more.",
  },
  "ws.originRefused": {
    da: "Login med cookie kræver en tilladt Origin. Send authToken i connectionParams.",
    en: "Signing in with a cookie requires an allowed Origin. Send authToken in connectionParams.",
  },
} as const satisfies Record<string, CatalogueEntry>;

export type MessageKey = keyof typeof messages;

export type MessageParams = Readonly<Record<string, string | number>>;

/** A text by key: what errors, field errors and result messages carry instead of the text itself. */
export interface Message {
  key: MessageKey;
  params?: MessageParams;
}

/** A field error: which field, and the message to show beside it. */
export interface FieldError extends Message {
  field: string;
}

export function isMessageKey(value: unknown): value is MessageKey {
  return typeof value === "string" && Object.hasOwn(messages, value);
}

const NUMBER_LOCALES: Record<Locale, string> = { da: "da-DK", en: "en-GB" };

const PLACEHOLDER = /\{(\w+)(?::(number))?\}/g;
/** the same placeholders without captures, to split a text into its own words (messageSays) */
const PLACEHOLDER_SPLIT = /\{\w+(?::number)?\}/;

/** The placeholders of a text, e.g. ["max", "length:number"]: both languages of a key must use the same. */
export function placeholdersOf(text: string): string[] {
  return [...text.matchAll(PLACEHOLDER)].map((m) => (m[2] ? `${m[1]}:${m[2]}` : m[1])).sort();
}

/**
 * The text of `key` in `locale` with its placeholders filled. A placeholder without a parameter stays as it is
 * (visible, so a missing parameter is noticed); `{n:number}` formats a number for the locale.
 */
export function formatMessage(key: MessageKey, params: MessageParams = {}, locale: Locale = "da"): string {
  const text = messages[key][locale];
  return text.replace(PLACEHOLDER, (whole, name: string, format?: string) => {
    if (!Object.hasOwn(params, name)) return whole;
    const value = params[name];
    if (format === "number" && typeof value === "number") {
      return value.toLocaleString(NUMBER_LOCALES[locale]);
    }
    return String(value);
  });
}

/**
 * Does the text of `key` say `search` in its own words, in any language (case-insensitive, placeholders left
 * out)? "signed in" and "loggede ind" are said by `log.login` ("{name} signed in"); "name" and "{name} signed in"
 * are not. The admin's activity search uses it (API query and the web's live filter alike), so an entry is found
 * by the words its reader sees, not only by its stored Danish description.
 */
export function messageSays(key: MessageKey, search: string): boolean {
  const wanted = search.trim().toLowerCase();
  if (!wanted) return false;
  return Object.values(messages[key]).some((text: string) =>
    text.split(PLACEHOLDER_SPLIT).some((part) => part.toLowerCase().includes(wanted)),
  );
}

/** A Message as text in `locale`. */
export function messageText(message: Message, locale: Locale = "da"): string {
  return formatMessage(message.key, message.params, locale);
}
