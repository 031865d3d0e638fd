/**
 * Keeping a database password out of messages: a connection string with its
 * secrets hidden (URL userinfo, password parameters, libpq key=value strings),
 * and a driver's message with any secret it echoes removed.
 */

const HIDDEN = '***';
/** Parameters whose values are secrets: password, sslpassword, and the like. */
const SENSITIVE_KEY = /pass|pwd|secret|token/i;

const isSensitiveKey = (rawKey: string): boolean => {
  let key: string;
  try {
    key = decodeURIComponent(rawKey.replace(/\+/g, ' '));
  } catch {
    return true;
  }
  return SENSITIVE_KEY.test(key) || SENSITIVE_KEY.test(rawKey);
};

/**
 * Where the values of sensitive `key=value` parameters of a URL lie, as
 * [start, end) spans: a value runs to the next `&` (a `#` or `?` in it
 * included). Keys are found wherever they follow `?`, `&` or `;`, even inside
 * another parameter's value, so that nothing shadows a password.
 */
const sensitiveParamSpans = (text: string): [number, number][] => {
  const spans: [number, number][] = [];
  for (const m of text.matchAll(/(?<=[?&;])([^=&?;#]*)=(?=([^&]*))/g))
    if (isSensitiveKey(m[1]!)) spans.push([m.index + m[0].length, m.index + m[0].length + m[2]!.length]);
  return spans;
};

/** `text` with every span replaced by {@link HIDDEN} (overlapping or touching spans as one). */
const mask = (text: string, spans: [number, number][]): string => {
  const merged: [number, number][] = [];
  for (const [start, end] of [...spans].sort((a, b) => a[0] - b[0])) {
    const last = merged[merged.length - 1];
    if (last && start <= last[1]) last[1] = Math.max(last[1], end);
    else merged.push([start, end]);
  }
  let out = '';
  let at = 0;
  for (const [start, end] of merged) {
    out += text.slice(at, start) + HIDDEN;
    at = end;
  }
  return out + text.slice(at);
};

/**
 * Splits `user:password@` off the rest of a URL's authority. The password may
 * hold `@`, `:`, `/`, `?` or `#` (unencoded, the URL is invalid, but it must not
 * leak): userinfo runs to the last `@`, unless what precedes its first `:` is
 * not a user name (holds `/`, `?` or `#`): then the `@` is in the path or query.
 */
const splitUserinfo = (rest: string): { user: string; hasPassword: boolean; after: string } | null => {
  const at = rest.lastIndexOf('@');
  if (at === -1) return null;
  const userinfo = rest.slice(0, at);
  const colon = userinfo.indexOf(':');
  const user = colon === -1 ? userinfo : userinfo.slice(0, colon);
  if (/[/?#]/.test(user)) return null;
  return { user, hasPassword: colon !== -1, after: rest.slice(at + 1) };
};

/** The spans of `rest` (a URL after `scheme://`) that hold secrets: the userinfo password and sensitive parameters. */
const uriSecretSpans = (rest: string): [number, number][] => {
  const spans = sensitiveParamSpans(rest);
  const userinfo = splitUserinfo(rest);
  if (userinfo?.hasPassword) spans.push([userinfo.user.length + 1, rest.length - userinfo.after.length - 1]);
  return spans;
};

const redactUri = (scheme: string, rest: string): string => `${scheme}//${mask(rest, uriSecretSpans(rest))}`;

/** One `key=value` of a libpq keyword/value string: the value bare (with `\` escapes) or in single quotes. */
const KEY_VALUE = /(\s*)([^\s=]+)(\s*=\s*)('(?:[^'\\]|\\.)*'|(?:[^\s'\\]|\\.)*)/y;

const redactKeyValue = (text: string): string => {
  let out = '';
  KEY_VALUE.lastIndex = 0;
  while (KEY_VALUE.lastIndex < text.length) {
    if (/^\s*$/.test(text.slice(KEY_VALUE.lastIndex))) break;
    const start = KEY_VALUE.lastIndex;
    const m = KEY_VALUE.exec(text);
    // Unparsable from here on (an unterminated quote, a stray word): hide the rest.
    if (!m || m.index !== start) return `${out} ${HIDDEN}`.trimStart();
    const [, space, key, equals, value] = m as unknown as [string, string, string, string, string];
    out += `${space}${key}${equals}${isSensitiveKey(key) ? HIDDEN : value}`;
  }
  return out;
};

/**
 * A connection string with its secrets hidden, for messages: the password of a
 * URL's userinfo (whatever it holds), `password`/`sslpassword` parameters (any
 * case) of a URL or a libpq `key=value` string (quoted or not). Something that
 * parses as neither is hidden but for a host after its last `@`.
 */
export function redactUrl(url: string): string {
  const uri = /^([A-Za-z][A-Za-z0-9+.-]*:)\/\/(.*)$/s.exec(url);
  if (uri) return redactUri(uri[1]!, uri[2]!);
  if (/^\s*[A-Za-z_][A-Za-z0-9_]*\s*=/.test(url)) return redactKeyValue(url);
  // A bare host name or a socket directory (with a database name) has nothing to hide.
  if (/^[\w.\-/]+( [\w.-]+)?$/.test(url)) return url;
  const at = url.lastIndexOf('@');
  const after = at === -1 ? '' : url.slice(at + 1);
  if (/^[\w.\-[\]:]+(\/[\w.-]*)?$/.test(after)) return `${HIDDEN}@${after}`;
  return HIDDEN;
}

/** The secrets a connection string carries, raw and decoded. */
function secretsOf(connectionString: string): string[] {
  const found = new Set<string>();
  const add = (value: string) => {
    for (const v of [value, safeDecode(value), safeDecode(value.replace(/\+/g, ' ')), value.replace(/^'(.*)'$/s, '$1').replace(/\\(.)/g, '$1')])
      if (v !== undefined) found.add(v);
  };
  const uri = /^[A-Za-z][A-Za-z0-9+.-]*:\/\/(.*)$/s.exec(connectionString);
  if (uri) for (const [start, end] of uriSecretSpans(uri[1]!)) add(uri[1]!.slice(start, end));
  for (const m of connectionString.matchAll(/([^\s=?&;]+)\s*=\s*('(?:[^'\\]|\\.)*'|[^\s&]*)/g)) if (isSensitiveKey(m[1]!)) add(m[2]!);
  return [...found];
}

const safeDecode = (value: string): string | undefined => {
  try {
    return decodeURIComponent(value);
  } catch {
    return undefined;
  }
};

/**
 * `message` with every secret of `connectionString` in it replaced: a driver
 * message echoing part of the string must not leak the password. Secrets
 * shorter than 4 characters are left alone (they would mangle any message).
 */
export function scrubSecrets(message: string, connectionString: string): string {
  let out = message;
  for (const secret of secretsOf(connectionString).sort((a, b) => b.length - a.length))
    if (secret.length >= 4) out = out.split(secret).join(HIDDEN);
  return out;
}
