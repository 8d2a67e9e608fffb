import {
  isRouteErrorResponse,
  Links,
  Meta,
  Outlet,
  Scripts,
  ScrollRestoration,
  useMatches,
} from "react-router";
import type { Route } from "./+types/root";
import { DeferredToaster } from "~/components/layout/deferred-toaster";
import type { RootData } from "~/lib/business";
import { business } from "~/lib/business.server";
import { useNonce } from "~/lib/nonce";
import { pageScript } from "~/lib/page-scripts";
import "./app.css";

export function loader(): RootData {
  return { business: business() };
}

/**
 * The document. A page whose route says `handle = { hydrate: false }` (the public pages,
 * ADR 030) gets none of React Router's scripts: no React in the browser, only its small
 * enhancement script, inline (no request of its own) and a module (deferred: it runs once the
 * document is parsed, it never holds up the first paint). The CSP allows it by its hash or by
 * the request's nonce (ADR 001).
 */
export function Layout({ children }: { children: React.ReactNode }) {
  const nonce = useNonce();
  const matches = useMatches();
  const { hydrate, script } = pageScript(matches);
  // Staff pages: the manifest whose start_url is 'Today' (ADR 049).
  const staffPage = matches.some((m) => m.id.startsWith("routes/employee"));
  return (
    <html lang="en">
      <head>
        <meta charSet="utf-8" />
        <meta name="viewport" content="width=device-width, initial-scale=1" />
        <meta name="theme-color" content="#0f5f56" />
        <link rel="icon" href="/favicon.ico" sizes="48x48" />
        <link rel="icon" href="/favicon.svg" type="image/svg+xml" />
        <link rel="apple-touch-icon" href="/apple-touch-icon.png" />
        <link rel="manifest" href={staffPage ? "/staff.webmanifest" : "/site.webmanifest"} />
        <Meta />
        <Links />
        {script && (
          <script type="module" nonce={nonce} dangerouslySetInnerHTML={{ __html: script }} />
        )}
      </head>
      <body className="min-h-dvh bg-background text-foreground antialiased">
        {children}
        {hydrate && (
          <>
            <DeferredToaster />
            <ScrollRestoration nonce={nonce} />
            <Scripts nonce={nonce} />
          </>
        )}
      </body>
    </html>
  );
}

export default function App() {
  return <Outlet />;
}

export function ErrorBoundary({ error }: Route.ErrorBoundaryProps) {
  let detail = "Unknown error";
  let stack: string | undefined;
  if (isRouteErrorResponse(error)) {
    detail = error.statusText || (typeof error.data === "string" ? error.data : `${error.status}`);
  } else if (error instanceof Error) {
    detail = error.message;
    if (import.meta.env.DEV) stack = error.stack;
  }
  return (
    <main className="mx-auto max-w-2xl p-6 pt-16">
      <h1 className="text-2xl font-bold">Unexpected Application Error!</h1>
      <p className="mt-4 text-lg">{detail}</p>
      {stack && (
        <pre className="mt-4 overflow-x-auto rounded bg-muted p-4 text-sm">
          <code>{stack}</code>
        </pre>
      )}
      <p className="mt-6">
        <a className="text-primary underline" href="/">
          Back to the home page
        </a>
      </p>
    </main>
  );
}
