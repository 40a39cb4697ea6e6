/**
 * An API answer's text as the app reads it: JSON when it parses, else the text itself (an error page
 * from a proxy), and nothing for an empty answer. Its own module, free of the app's state, so a
 * worker reading an answer can share it.
 */
export function parseAnswerText(text: string): unknown {
  if (!text) return undefined;
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}
