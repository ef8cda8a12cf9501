/**
 * Credentials written into URLs (`https://deploy:SECRET@host/web.git`) are the operator's to give
 * git, never anyone's to read: every URL in a text loses its user and password before the text is
 * shown, answered or logged.
 */

/** `scheme://user:password@` and `scheme://token@`: the part that goes. */
const USERINFO = /\b([a-z][a-z0-9+.-]*:\/\/)[^\s/?#@]*@/gi;

/** The text with the user and password of every URL in it removed. */
export function withoutCredentials(text: string): string {
  return text.replace(USERINFO, '$1');
}
