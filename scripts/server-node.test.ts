import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { SERVER_NODE_ENV, SERVER_NODE_FLAGS } from "./server-node.mjs";

const root = path.resolve(import.meta.dirname, "..");

describe("the production server runs on the same Node settings wherever it starts", () => {
  // `exec`: the shell npm starts the script in becomes the server, so the SIGTERM npm forwards
  // (from a supervisor or `kill`) reaches the server; a shell in between would die of it and
  // leave the server running, re-parented, holding DATA_DIR's lock.
  it("npm start", () => {
    const pkg = JSON.parse(fs.readFileSync(path.join(root, "package.json"), "utf8"));
    const env = Object.entries(SERVER_NODE_ENV).map(([name, value]) => `${name}=${value}`);
    expect(pkg.scripts.start).toBe(
      [...env, "exec", "node", ...SERVER_NODE_FLAGS, "scripts/start.mjs"].join(" "),
    );
  });

  it("the systemd unit", () => {
    const unit = fs.readFileSync(path.join(root, "deploy/systemd/handyman@.service"), "utf8");
    expect(unit).toContain(
      `ExecStart=/usr/bin/node ${SERVER_NODE_FLAGS.join(" ")} build/server/main.js`,
    );
    for (const [name, value] of Object.entries(SERVER_NODE_ENV))
      expect(unit).toMatch(new RegExp(`^Environment=.*\\b${name}=${value}\\b`, "m"));
  });
});
