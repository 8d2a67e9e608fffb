import type { IncomingMessage } from "node:http";
import type { Socket } from "node:net";
import path from "node:path";
import { pathToFileURL } from "node:url";
import type { ServerBuild } from "react-router";
import { DataDirectoryLockedError } from "~/db/lock.server";
import { ConfigError, env } from "~/lib/env.server";
import { configureLogger, logger } from "~/lib/logger.server";
import { createApp } from "./app";
import { prepareDatabase, startBackgroundWork } from "./start-up";

function fail(message: string): never {
  console.error(`\n${message}\n`);
  process.exit(1);
}

async function main() {
  process.env.NODE_ENV ??= "production";
  let config: ReturnType<typeof env>;
  try {
    config = env();
  } catch (error) {
    if (error instanceof ConfigError) fail(error.message);
    throw error;
  }
  configureLogger();

  let handle;
  try {
    handle = await prepareDatabase(config);
  } catch (error) {
    if (error instanceof DataDirectoryLockedError) fail(error.message);
    throw error;
  }

  const buildDir = path.resolve(process.env.BUILD_DIR ?? "build");
  const build = (await import(
    pathToFileURL(path.join(buildDir, "server", "index.js")).href
  )) as ServerBuild;
  let draining = false;
  const app = createApp({
    build,
    clientDir: path.join(buildDir, "client"),
    isDraining: () => draining,
  });

  const server = app.listen(config.port, config.host ?? "0.0.0.0", (error?: Error) => {
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
    console.log(`${"Server ready:"} ${config.publicUrl} (listening on port ${port})`);
  });
  server.keepAliveTimeout = 65_000;
  // Connections accepted whose request has not been read yet (a busy event loop leaves the bytes
  // in the socket): closing the server would reset them, so the shutdown waits for them.
  const unread = new Set<Socket>();
  server.on("connection", (socket: Socket) => {
    unread.add(socket);
    socket.once("close", () => unread.delete(socket));
  });
  server.on("request", (request: IncomingMessage) => unread.delete(request.socket));

  const background = startBackgroundWork();

  let shuttingDown = false;
  const shutdown = (signal: string) => {
    if (shuttingDown) return;
    shuttingDown = true;
    draining = true;
    logger.info({ signal }, "shutting down: draining, then finishing in-flight requests");
    const force = setTimeout(() => {
      logger.error("shutdown took too long; exiting");
      process.exit(1);
    }, 20_000);
    force.unref();
    // Drain first: keep answering (with Connection: close and a failing /healthz, so a load
    // balancer moves away) for a moment, because connections already accepted may not have
    // sent their request yet and closing them now would reset them.
    const close = () => {
      server.close(async () => {
        await background.stop();
        await handle.close();
        logger.info("shutdown complete");
        process.exit(0);
      });
      server.closeIdleConnections();
    };
    setTimeout(() => {
      // Then wait (up to 5 s more) for connections whose request is still unread.
      const giveUp = Date.now() + 5_000;
      const closeWhenRead = () => {
        if (unread.size === 0 || Date.now() > giveUp) close();
        else setTimeout(closeWhenRead, 25);
      };
      closeWhenRead();
    }, config.shutdownDrainMs);
  };
  process.on("SIGTERM", () => shutdown("SIGTERM"));
  process.on("SIGINT", () => shutdown("SIGINT"));
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
