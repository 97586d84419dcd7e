/**
 * Quoting for redis.conf arguments. redis-server splits each config line with
 * sdssplitargs: inside double quotes it understands \\, \" and \xHH escapes.
 * Every byte that is not printable ASCII is written as \xHH, so any string
 * (including spaces, quotes, newlines and UTF-8) survives as one argument.
 */
export function quoteConfigArg(value: string): string {
  let out = '"';
  for (const byte of new TextEncoder().encode(value)) {
    if (byte === 0x5c) out += '\\\\';
    else if (byte === 0x22) out += '\\"';
    else if (byte >= 0x20 && byte < 0x7f) out += String.fromCharCode(byte);
    else out += `\\x${byte.toString(16).padStart(2, '0')}`;
  }
  return `${out}"`;
}

/** ACL user names Strata generates: short, no whitespace or rule syntax. */
const USERNAME = /^[A-Za-z0-9][A-Za-z0-9_.-]{0,63}$/;

export function assertSafeUsername(name: string): void {
  if (!USERNAME.test(name) || name === 'default') {
    throw new Error(`invalid engine user name ${JSON.stringify(name)}: use 1-64 of [A-Za-z0-9_.-], not "default"`);
  }
}
