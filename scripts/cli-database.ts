/*
 * How the admin CLI names the database it works on and explains why it could not reach it:
 * host, port, database and user, or the data directory; never the password.
 */

export type DatabaseTarget = { databaseUrl: string } | { dataDir: string };

const NO_HOST = "no-host.invalid";

/** The URL, also when it names no host (a socket in ?host=), which WHATWG URL refuses. */
function parseUrl(text: string) {
  for (const candidate of [
    text,
    text.replace(/^(postgres(?:ql)?:\/\/[^/]*@)\//i, `$1${NO_HOST}/`),
  ]) {
    try {
      return new URL(candidate);
    } catch {
      // try the next form
    }
  }
  return undefined;
}

export function describeDatabase(target: DatabaseTarget) {
  if ("dataDir" in target) return `the embedded database in DATA_DIR ${target.dataDir}`;
  const url = parseUrl(target.databaseUrl);
  if (!url) return "the PostgreSQL database of DATABASE_URL (not a valid URL)";
  // postgres://user@/db?host=/var/run/postgresql connects through a Unix socket.
  const socket = url.searchParams.get("host");
  const hostname = url.hostname === NO_HOST ? "" : url.hostname;
  const where =
    socket && !hostname ? `socket ${socket}` : `${hostname || "localhost"}:${url.port || "5432"}`;
  const name = decodeURIComponent(url.pathname.replace(/^\//, "")) || "(default)";
  const user = url.username ? ` as user ${decodeURIComponent(url.username)}` : "";
  return `PostgreSQL database "${name}" on ${where}${user} (DATABASE_URL)`;
}

/** The secrets of a connection string: what must never appear in anything printed. */
function secretsOf(target: DatabaseTarget) {
  if (!("databaseUrl" in target)) return [];
  const url = parseUrl(target.databaseUrl);
  if (!url) return [target.databaseUrl];
  const secrets = [url.password, decodeURIComponent(url.password), target.databaseUrl];
  const fromQuery = url.searchParams.get("password");
  if (fromQuery) secrets.push(fromQuery, encodeURIComponent(fromQuery));
  return secrets.filter((secret) => secret.length > 0);
}

/** `text` with any password of `target`, and any credentials in a URL, replaced by ***. */
export function redact(text: string, target: DatabaseTarget) {
  let clean = text.replace(/(postgres(?:ql)?:\/\/[^:/@\s]*:)[^@\s]*@/gi, "$1***@");
  for (const secret of secretsOf(target).sort((a, b) => b.length - a.length)) {
    clean = clean.split(secret).join("***");
  }
  return clean;
}

type ErrorLike = { code?: string; message?: string; errors?: unknown[] };

/** The underlying failure: a connection to "localhost" fails once per address (IPv6, IPv4). */
function rootCause(error: unknown): ErrorLike {
  const value = (error ?? {}) as ErrorLike;
  if (Array.isArray(value.errors) && value.errors.length > 0 && !value.message) {
    return {
      ...(value.errors[0] as ErrorLike),
      code: value.code ?? (value.errors[0] as ErrorLike).code,
    };
  }
  return value;
}

/** Why the database could not be reached, in words, without the password. */
export function explainConnectionError(error: unknown, target: DatabaseTarget) {
  const cause = rootCause(error);
  const message = cause.message || String(error);
  let reason: string;
  switch (cause.code) {
    case "ECONNREFUSED":
      reason = "connection refused (is PostgreSQL running and listening on that host and port?)";
      break;
    case "ENOTFOUND":
    case "EAI_AGAIN":
      reason = "the host name could not be resolved";
      break;
    case "ETIMEDOUT":
      reason = "no answer (timed out)";
      break;
    case "EHOSTUNREACH":
    case "ENETUNREACH":
      reason = "the host cannot be reached from this machine";
      break;
    case "ECONNRESET":
      reason = "the server closed the connection";
      break;
    case "28P01":
      reason = "the server refused the password";
      break;
    case "3D000":
      reason = "that database does not exist on the server";
      break;
    case "EACCES":
    case "EPERM":
      reason = `permission denied (${message})`;
      break;
    default:
      reason = /timeout/i.test(message) ? "no answer within 5 seconds (timed out)" : message;
  }
  const [verb, hint] =
    "databaseUrl" in target ? ["reach", "Check DATABASE_URL."] : ["open", "Check DATA_DIR."];
  // Only the error's own words are redacted: the description is built without the password,
  // and a short password ("postgres") would otherwise blot out ordinary words.
  return `Could not ${verb} ${describeDatabase(target)}: ${redact(reason, target)}. ${hint}`;
}
