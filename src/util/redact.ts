/**
 * Redaction of secrets by value: the configured API key (and its last 8 characters, which
 * providers echo as `…abcd1234`) and credentials carried in URLs (`user:pass@host`, `?api-key=…`,
 * `?token=…`). Applied to everything a model call can put into an error text, a receipt or output.
 */

/** Query parameters whose values are credentials. */
const CREDENTIAL_PARAM = /([?&](?:api[-_]?key|key|access[-_]?token|token|secret|password|passwd|pwd|sig|signature|auth|authorization|code)=)[^&#\s"'<>]*/gi;
/** `scheme://user:pass@` or `scheme://token@`. */
const URL_USERINFO = /\b([a-z][a-z0-9+.-]*:\/\/)[^/?#@\s"'<>]+@/gi;

/** `text` with URL credentials (userinfo, credential query values) replaced by `***`. */
export function redactUrlCredentials(text: string): string {
  return text.replace(URL_USERINFO, '$1***@').replace(CREDENTIAL_PARAM, '$1***');
}

/** True when `url` carries a credential (userinfo or a credential query parameter). */
export function urlHasCredentials(url: string): boolean {
  return redactUrlCredentials(url) !== url;
}

/**
 * `text` with every occurrence of each secret (and, for secrets of 12+ characters, of its last 8
 * characters) and every URL credential replaced by `***`.
 */
export function redactSecrets(text: string, secrets: readonly string[]): string {
  let out = text;
  for (const secret of secrets) {
    if (!secret) continue;
    out = out.split(secret).join('***');
    if (secret.length >= 12) out = out.split(secret.slice(-8)).join('***');
  }
  return redactUrlCredentials(out);
}
