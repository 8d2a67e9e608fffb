import fs from "node:fs";

/**
 * Linux: how many connections to `port` the kernel has completed that the process has not
 * accepted yet (the listening socket's accept queue, the receive-queue column of
 * /proc/net/tcp for a socket in state LISTEN). Closing a listening socket resets every one of
 * them, so the shutdown closes it only when this is zero. Undefined where it cannot be known.
 */
export function pendingAccepts(port: number): number | undefined {
  const hexPort = `:${port.toString(16).toUpperCase().padStart(4, "0")}`;
  let pending: number | undefined;
  for (const file of ["/proc/net/tcp", "/proc/net/tcp6"]) {
    let text: string;
    try {
      text = fs.readFileSync(file, "utf8");
    } catch {
      continue;
    }
    for (const line of text.split("\n").slice(1)) {
      // sl local_address rem_address st tx_queue:rx_queue ...
      const fields = line.trim().split(/\s+/);
      if (fields[3] !== "0A" || !fields[1]?.endsWith(hexPort)) continue;
      pending = (pending ?? 0) + parseInt(fields[4]?.split(":")[1] ?? "0", 16);
    }
  }
  return pending;
}
