import http, { type IncomingMessage, type RequestListener, type ServerResponse } from "node:http";
import fs from "node:fs";
import type { Socket } from "node:net";
import path from "node:path";
import { pathToFileURL } from "node:url";
import type { ServerBuild } from "react-router";
import { DataDirectoryLockedError } from "~/db/lock.server";
import { ConfigError, env } from "~/lib/env.server";
import { configureLogger, flushLogs, logger } from "~/lib/logger.server";
import { pendingAccepts } from "./accept-queue";
import { setPublicImagesDir } from "~/lib/public-images.server";
import { createApp } from "./app";
import { createFastPath, prepareFastPath, type FastPath } from "./fast-path";
import { renderPublicPages, renderVisitorPages, renderSearchFiles } from "./public-pages";
import { startIdleTrim } from "./memory-trim";
import type { FirstStart } from "./first-start-gate";
import { fillDatabase, openReadyDatabase, startBackgroundWork } from "./start-up";
import { staffWebManifestFile, webManifestFile } from "./web-manifest";

function fail(message: string): never {
  console.error(`\n${message}\n`);
  process.exit(1);
}

/**
 * React Router's server build, the public pages it renders with this process's settings, and
 * the fast path's answers (those pages, robots.txt, sitemap.xml, the web manifest and the
 * build's files, with their headers and compressed bodies: ADR 032).
 */
async function loadSite(buildDir: string) {
  const file = path.join(buildDir, "server", "index.js");
  if (!fs.existsSync(file)) fail(`No build in ${buildDir}: run "npm run build" first.`);
  const build = (await import(pathToFileURL(file).href)) as ServerBuild;
  const publicPages = await renderPublicPages(build);
  const answers = await prepareFastPath({
    publicPages,
    visitorPages: await renderVisitorPages(build),
    searchFiles: new Map([
      ...(await renderSearchFiles(build)),
      ["/site.webmanifest", webManifestFile()],
      ["/staff.webmanifest", staffWebManifestFile()],
    ]),
    clientDir: path.join(buildDir, "client"),
    imagesDir: path.join(buildDir, "images"),
  });
  return { build, publicPages, answers };
}

/**
 * The production server. The build's entry (build/server/main.js) calls it once this module's
 * packages have loaded, with a newcomer's first start already under way when there is one
 * (first-start-gate.ts, ADR 101).
 */
/** The settings, or the process ends with the message naming what is wrong. */
function settingsOrFail() {
  try {
    return env();
  } catch (error) {
    if (error instanceof ConfigError) fail(error.message);
    throw error;
  }
}

/**
 * The request handler while a newcomer's demo data may still be being written (ADR 108): the
 * fast path's answers (pages and files that read no database) at once; every other request,
 * /healthz too, once `filling` has settled, then as usual.
 */
function answerOnceFilled(filling: Promise<void>, fastPath: FastPath, app: RequestListener) {
  let filled = false;
  void filling.then(() => {
    filled = true;
  });
  const answer = (req: IncomingMessage, res: ServerResponse) => {
    if (!fastPath(req, res)) app(req, res);
  };
  return (req: IncomingMessage, res: ServerResponse) => {
    if (filled) return answer(req, res);
    if (req.url !== "/healthz" && fastPath(req, res)) return;
    void filling.then(() => answer(req, res));
  };
}

export async function main(options: { firstStart?: FirstStart } = {}) {
  process.env.NODE_ENV ??= "production";
  const config = settingsOrFail();
  configureLogger();

  // The server build loads and the public pages render while the database opens and migrates:
  // both are needed before the first answer, and start-up is measured in seconds (ADR 029).
  const buildDir = path.resolve(process.env.BUILD_DIR ?? "build");
  const site = loadSite(buildDir);
  site.catch(() => {}); // awaited below, once the database is ready; a failure throws there
  let handle: Awaited<ReturnType<typeof openReadyDatabase>>;
  try {
    handle = await openReadyDatabase(config);
  } catch (error) {
    if (error instanceof DataDirectoryLockedError) fail(error.message);
    throw error;
  }
  // A newcomer's first start writes the demo data in a process of its own (ADR 092, 101) while
  // the server listens (ADR 108; answerOnceFilled).
  let shuttingDown = false;
  const filling = fillDatabase(config, handle, {
    firstStart: options.firstStart,
    stopping: () => shuttingDown,
  }).then(
    (ready) => {
      handle = ready;
    },
    (error: unknown) => fail(`Could not write the demo data: ${(error as Error).message}`),
  );
  const { build, publicPages, answers } = await site;
  setPublicImagesDir(path.join(buildDir, "images"));
  let draining = false;
  const isDraining = () => draining;
  const app = createApp({
    build,
    clientDir: path.join(buildDir, "client"),
    publicPages,
    isDraining,
  });
  // The static fast path answers first; what it leaves goes to Express (ADR 032). It believes
  // X-Forwarded-Proto from the same addresses Express does.
  const fastPath = createFastPath(answers, {
    isDraining,
    trust: app.get("trust proxy fn") as (address: string, hop: number) => boolean,
  });
  const server = http.createServer(answerOnceFilled(filling, fastPath, app));

  // As Express's app.listen: the callback gets a failure to listen, once; a later server error
  // is not fatal.
  let listenAnswered = false;
  const onListen = (error?: Error) => {
    if (listenAnswered) return;
    listenAnswered = true;
    if (error) {
      const code = (error as NodeJS.ErrnoException).code;
      fail(
        code === "EADDRINUSE"
          ? `Port ${config.port} is already in use. Stop the other server or set PORT.`
          : `Could not start the server: ${error.message}`,
      );
    }
    const address = server.address();
    const port = typeof address === "object" && address ? address.port : config.port;
    logger.info({ port }, "server listening");
    // Ready once the demo data is written too: from this line on, every page answers at once.
    void filling.then(() => {
      if (shuttingDown) return;
      console.log(`${"Server ready:"} ${config.publicUrl} (listening on port ${port})`);
      // The public pages' brotli bodies, now that start-up is done (ADR 032).
      answers.addBrotli().catch((error: unknown) => {
        logger.error({ err: (error as Error).message }, "brotli bodies not made");
      });
    });
  };
  server.on("error", onListen);
  server.listen(config.port, config.host ?? "0.0.0.0", () => onListen());
  server.keepAliveTimeout = 65_000;
  const listeningAddress = () => {
    const address = server.address();
    return typeof address === "object" && address
      ? address
      : { port: config.port, family: config.host?.includes(":") ? "IPv6" : "IPv4" };
  };
  // Connections accepted whose request has not been read yet (a busy event loop leaves the bytes
  // in the socket): closing the server would reset them, so the shutdown waits for them.
  const unread = new Set<Socket>();
  server.on("connection", (socket: Socket) => {
    unread.add(socket);
    socket.once("close", () => unread.delete(socket));
  });
  // Requests being answered: when the shutdown begins, those whose answer has not started yet
  // also tell their keep-alive client to close the connection.
  const answering = new Set<ServerResponse>();
  // Once the server is idle, it collects its garbage and hands memory back (ADR 078).
  const idleTrim = startIdleTrim({ idleMs: config.idleMemoryTrimMs });
  server.on("request", (request: IncomingMessage, response: ServerResponse) => {
    idleTrim.busy();
    unread.delete(request.socket);
    answering.add(response);
    response.once("close", () => answering.delete(response));
  });

  const background = filling.then(() => startBackgroundWork());

  const shutdown = (signal: string) => {
    if (shuttingDown) return;
    shuttingDown = true;
    draining = true;
    idleTrim.stop();
    // The deadline runs from the signal, whatever happens next: a connection that never
    // finishes (half-closed, or a client that stopped reading), a delivery or a pass that hangs,
    // a database that does not close. Unref'd, so it never keeps an otherwise finished process.
    const force = setTimeout(() => {
      logger.error({ afterMs: config.shutdownTimeoutMs }, "shutdown took too long; exiting");
      process.exit(1);
    }, config.shutdownTimeoutMs);
    force.unref();
    logger.info({ signal }, "shutting down: draining, then finishing in-flight requests");
    for (const response of answering) {
      if (!response.headersSent) response.setHeader("Connection", "close");
    }
    // Drain first: keep answering (with Connection: close and a failing /healthz, so a load
    // balancer moves away) for a moment, because connections already accepted may not have
    // sent their request yet and closing them now would reset them.
    const close = () => {
      server.close(async () => {
        await (await background).stop();
        await handle.close();
        logger.info("shutdown complete");
        await flushLogs();
        process.exit(0);
      });
      server.closeIdleConnections();
    };
    setTimeout(() => {
      // Then wait (up to 5 s more) until no accepted connection has its request unread and no
      // connection waits in the kernel's accept queue (closing the listening socket would reset
      // those): a client still sending is answered rather than cut off.
      const giveUp = Date.now() + 5_000;
      const closeWhenRead = () => {
        const quiet = unread.size === 0 && !pendingAccepts(listeningAddress());
        if (quiet || Date.now() > giveUp) close();
        else setTimeout(closeWhenRead, 5);
      };
      closeWhenRead();
    }, config.shutdownDrainMs);
  };
  process.on("SIGTERM", () => shutdown("SIGTERM"));
  process.on("SIGINT", () => shutdown("SIGINT"));
}
