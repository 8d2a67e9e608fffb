import { spawn, type ChildProcess } from "node:child_process";
import net from "node:net";
import { afterEach, expect, test } from "vitest";
import { pendingAccepts } from "./accept-queue";

/*
 * The accept queue read from /proc/net/tcp: listening sockets that never accept (a python
 * process that listens and sleeps), enough of them that their lines span several of the small
 * reads, and clients whose handshakes the kernel completes and queues.
 */

const listeners: ChildProcess[] = [];
const clients: net.Socket[] = [];
afterEach(() => {
  for (const client of clients.splice(0)) client.destroy();
  for (const child of listeners.splice(0)) child.kill("SIGKILL");
});

const LISTEN = `
import signal, socket, sys
family = socket.AF_INET6 if sys.argv[1] == "IPv6" else socket.AF_INET
ports = []
for _ in range(int(sys.argv[3])):
    s = socket.socket(family, socket.SOCK_STREAM)
    s.bind((sys.argv[2], 0))
    s.listen(16)
    ports.append(s)
print(" ".join(str(s.getsockname()[1]) for s in ports), flush=True)
signal.pause()
`;

/** `count` listening sockets that never accept, on `host`; their ports. */
async function listenWithoutAccepting(family: "IPv4" | "IPv6", host: string, count: number) {
  const child = spawn("python3", ["-c", LISTEN, family, host, String(count)], {
    stdio: ["ignore", "pipe", "inherit"],
  });
  listeners.push(child);
  const line = await new Promise<string>((resolve, reject) => {
    let out = "";
    child.stdout!.on("data", (d) => {
      out += d;
      if (out.includes("\n")) resolve(out.trim());
    });
    child.on("exit", (code) => reject(new Error(`python3 exited with ${code}`)));
  });
  return line.split(" ").map(Number);
}

async function connect(host: string, port: number, count: number) {
  await Promise.all(
    Array.from(
      { length: count },
      () =>
        new Promise<void>((resolve, reject) => {
          const socket = net.connect(port, host, () => resolve());
          socket.on("error", reject);
          clients.push(socket);
        }),
    ),
  );
}

test.runIf(process.platform === "linux")(
  "counts the connections queued on each IPv4 listening socket, past the first read",
  async () => {
    const ports = await listenWithoutAccepting("IPv4", "127.0.0.1", 12);
    const last = ports.at(-1)!;
    await connect("127.0.0.1", ports[0]!, 2);
    await connect("127.0.0.1", last, 3);
    expect(pendingAccepts({ port: ports[0]!, family: "IPv4" })).toBe(2);
    expect(pendingAccepts({ port: last, family: "IPv4" })).toBe(3);
    expect(pendingAccepts({ port: ports[5]!, family: "IPv4" })).toBe(0);
    // A port nobody listens on: not known, rather than zero.
    const closed = await new Promise<number>((resolve) => {
      const probe = net.createServer().listen(0, "127.0.0.1", () => {
        const { port } = probe.address() as net.AddressInfo;
        probe.close(() => resolve(port));
      });
    });
    expect(pendingAccepts({ port: closed, family: "IPv4" })).toBeUndefined();
  },
);

/** Whether this machine has an IPv6 loopback address. */
function hasIpv6Loopback() {
  return new Promise<boolean>((resolve) => {
    const probe = net.createServer();
    probe.once("error", () => resolve(false));
    probe.listen(0, "::1", () => probe.close(() => resolve(true)));
  });
}

test.runIf(process.platform === "linux")(
  "reads an IPv6 listening socket's queue from tcp6",
  async (context) => {
    if (!(await hasIpv6Loopback())) context.skip();
    const [port] = await listenWithoutAccepting("IPv6", "::1", 1);
    await connect("::1", port!, 2);
    expect(pendingAccepts({ port: port!, family: "IPv6" })).toBe(2);
  },
);
