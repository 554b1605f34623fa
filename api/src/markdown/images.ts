/**
 * Markdown images made inert: whoever opens the text in a Markdown viewer loads no image (a remote image tells its
 * server who reads, and when, and an address can carry what the text around it says). Every `![` that could open
 * an image gets its `!` escaped (`\![`): the rest reads as a link to the address, or as text, the way the web app
 * shows images. Context-free on purpose, also inside code (where the backslash then shows): a code fence or span
 * opened or closed by other text in the same document cannot hide an image from it. A reference image needs `![`
 * too, so link definitions may stay.
 */
export function inertImages(markdown: string): string {
  // a `!` after an odd run of backslashes is escaped already; after an even run (or none) it may open an image
  return markdown.replace(/(\\*)!\[/g, (found, slashes: string) =>
    slashes.length % 2 === 1 ? found : `${slashes}\\![`,
  );
}
