/**
 * The HTTP status to answer a form's result with.
 *
 * A form posted without JavaScript, or by a client that is not this app's own script, gets the
 * meaningful status (400 for a wrong field, 401 for a wrong password...). The page's own script
 * (a React Router `.data` request) shows the error from the body itself, so it gets 200 for a
 * person's ordinary mistake: a 4xx would also print "Failed to load resource" in the browser's
 * console for what is only a typo. Server failures (5xx) keep their status.
 */
export function answerStatus(status: number, context: { scriptRequest?: boolean }) {
  if (context.scriptRequest && status >= 400 && status < 500) return 200;
  return status;
}
