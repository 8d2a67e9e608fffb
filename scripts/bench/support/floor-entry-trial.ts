/**
 * The framework floor's /list drawn by one document entry against another, alternated in rounds
 * on one machine (CPU ms per request and req/s under wrk, 10 connections):
 *   FLOOR_ENTRY_A=<file or "default"> FLOOR_ENTRY_B=<file or "default">
 *     npx tsx scripts/bench/support/floor-entry-trial.ts [rounds] [seconds]
 * "default" is React Router's own entry (the floor without app/entry.server.tsx).
 */
import fs from "node:fs";
import { measure } from "../pages";
import { buildFloor, startFloor } from "./throughput-floor";

const [rounds = "2", seconds = "8"] = process.argv.slice(2);
const ENTRY = "app/entry.server.tsx";
const variants = (["A", "B"] as const).map((name) => {
  const file = process.env[`FLOOR_ENTRY_${name}`] ?? "default";
  const entry = file === "default" ? null : fs.readFileSync(file, "utf8");
  const built = buildFloor(
    fs.existsSync(`scripts/bench/floor/${ENTRY}`) || entry ? { [ENTRY]: entry } : {},
  );
  return { name: `${name} (${file})`, built };
});
const servers = await Promise.all(variants.map((v) => startFloor(v.built.dir)));
try {
  for (let round = 1; round <= Number(rounds); round++)
    for (const [i, variant] of variants.entries()) {
      const url = `${servers[i]!.origin}/list`;
      await measure("warm-up", url, {}, [servers[i]!.pid], 1);
      const m = await measure(variant.name, url, {}, [servers[i]!.pid], Number(seconds));
      console.log(
        `round ${round} ${variant.name}: ${m.rps.toFixed(0)} req/s, CPU ${m.cpuMs?.toFixed(3)} ms/request, p95 ${m.p95.toFixed(1)} ms`,
      );
    }
} finally {
  for (const server of servers) server.stop();
  for (const variant of variants) variant.built.remove();
}
