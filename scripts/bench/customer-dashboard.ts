/**
 * Customer dashboard (ADR 009, ADR 031): the server time and the size of /dashboard for a member
 * with 200 service requests and 1,000 photos (its lists come a page at a time: every page of
 * every list is fetched once and the largest document reported), and the processing time and
 * peak memory of a 10 MB JPEG upload.
 *
 * The dashboard runs in this process through the production build (build/, `npm run build`
 * first) on a real HTTP port, signed in like a browser. The database is PostgreSQL when
 * BENCH_DATABASE_URL or TEST_DATABASE_URL points at a server (an admin URL: the bench creates
 * and drops its own database), otherwise in-memory PGlite. Other members' data sits beside the
 * measured one, so the queries have something to skip.
 *
 * Results go to docs/benchmarks.md between <!-- customer:start --> and <!-- customer:end -->.
 */
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { setDatabase } from "~/db/client.server";
import { listUpcomingAppointments } from "~/features/visits/visit-lists.server";
import { processPhoto } from "~/features/photos/image.server";
import { listCustomerRequestPages } from "~/features/service-requests/service-requests.server";
import { resetEnvForTests } from "~/lib/env.server";
import { createLocalStorage, setStorage } from "~/lib/storage.server";
import {
  ms,
  openBenchDatabase,
  signIn,
  startServer,
  stats,
  timed,
  writeSection,
} from "./support/common";
import {
  FIRST_PAGES,
  ITERATIONS,
  PASSWORD,
  PHOTO_RUNS,
  PHOTOS_PER_REQUEST,
  REQUESTS,
  WARMUP,
} from "./support/customer-dashboard-config";
import {
  largestDocument,
  measurePhotoInChild,
  PHOTO_CHILD_FLAG,
  photoChild,
  timeGetPair,
} from "./support/customer-dashboard-measure";
import { customerSection } from "./support/customer-dashboard-report";
import { seed, tenMegabyteJpeg, TITLES } from "./support/customer-dashboard-seed";

if (process.argv.includes(PHOTO_CHILD_FLAG)) {
  await photoChild(process.argv[process.argv.indexOf(PHOTO_CHILD_FLAG) + 1]);
  process.exit(0);
}

export async function run() {
  const savedEnv = { ...process.env };
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "bench-customer-"));
  const database = await openBenchDatabase("customer");
  setDatabase(database.handle);
  setStorage(createLocalStorage(path.join(dataDir, "uploads")));
  let server: Awaited<ReturnType<typeof startServer>> = null;
  try {
    console.log(`seeding ${database.label}...`);
    const seeded = await seed(database.handle);

    // 1. The loader's queries alone: a page of each list, and the appointments.
    const loaderQueries = (customerId: string) =>
      Promise.all([
        listCustomerRequestPages(customerId, FIRST_PAGES),
        listUpcomingAppointments(customerId),
      ]);
    for (let i = 0; i < WARMUP; i++) await loaderQueries(seeded.member.id);
    const querySamples: number[] = [];
    for (let i = 0; i < ITERATIONS; i++) {
      const { ms: took, result } = await timed(() => loaderQueries(seeded.member.id));
      const [lists, upcoming] = result;
      const total = lists.next.total + lists.later.total + lists.completed.total;
      const shown = [lists.next, lists.later, lists.completed].flatMap((list) => list.items);
      if (total !== REQUESTS || shown.some((r) => r.photos.length !== PHOTOS_PER_REQUEST)) {
        throw new Error(`expected ${REQUESTS} requests with their photos, got ${total}`);
      }
      if (upcoming.length === 0) throw new Error("expected upcoming appointments");
      querySamples.push(took);
    }
    const queries = stats(querySamples);
    console.log(`queries: p50 ${ms(queries.p50)}, p95 ${ms(queries.p95)}`);

    // 2. The whole page through the production server: session, queries and rendering.
    server = await startServer(dataDir);
    let page: Awaited<ReturnType<typeof timeGetPair>> | null = null;
    let largest: Awaited<ReturnType<typeof largestDocument>> | null = null;
    let data: Awaited<ReturnType<typeof timeGetPair>> | null = null;
    let upload: number[] | null = null;
    const photo = await tenMegabyteJpeg();
    if (server) {
      const base = server.base;
      const cookie = await signIn(base, seeded.member.email, PASSWORD);
      const smallCookie = await signIn(base, seeded.small.email, PASSWORD);
      const rendered = (name: string, title: string) => (html: string) => {
        const body = html.replaceAll("<!-- -->", "");
        if (!body.includes(`Welcome, ${name}`) || !body.includes(title)) {
          const saved = path.join(os.tmpdir(), "bench-dashboard.html");
          fs.writeFileSync(saved, html);
          throw new Error(
            `the dashboard of ${name} did not render their requests (page saved to ${saved})`,
          );
        }
      };
      const documentHeaders = { "sec-fetch-dest": "document", accept: "text/html" };
      page = await timeGetPair(
        {
          url: `${base}/dashboard`,
          headers: { cookie, ...documentHeaders },
          check: rendered("Bench", `${TITLES[0]} #1`),
        },
        {
          url: `${base}/dashboard`,
          headers: { cookie: smallCookie, ...documentHeaders },
          check: rendered("Small", `${TITLES[0]} #1`),
        },
      );
      largest = await largestDocument(base, { cookie, ...documentHeaders });
      console.log(`largest document: ${largest.url}, ${largest.bytes} bytes`);
      const dataCheck = (body: string) => {
        if (!body.includes(`${TITLES[0]} #1`)) throw new Error("no requests in the data");
      };
      data = await timeGetPair(
        {
          url: `${base}/dashboard.data`,
          headers: { cookie, "sec-fetch-dest": "empty" },
          check: dataCheck,
        },
        {
          url: `${base}/dashboard.data`,
          headers: { cookie: smallCookie, "sec-fetch-dest": "empty" },
          check: dataCheck,
        },
      );
      console.log(`page: p50 ${ms(page.big.p50)}, p95 ${ms(page.big.p95)}`);

      // 3a. A 10 MB photo uploaded to the running server: the time a member waits for it.
      upload = [];
      for (let i = 0; i < PHOTO_RUNS; i++) {
        const body = new FormData();
        body.append(
          "photo",
          new File([new Uint8Array(photo.data)], "IMG_0001.jpg", { type: "image/jpeg" }),
        );
        const { ms: took } = await timed(async () => {
          const response = await fetch(
            `${base}/dashboard/requests/${seeded.requestIds[i]}/photos`,
            {
              method: "POST",
              body,
              headers: { cookie, origin: base },
            },
          );
          const answer = (await response.json()) as { ok: boolean };
          if (!response.ok || !answer.ok) throw new Error(`upload: HTTP ${response.status}`);
        });
        upload.push(took);
      }
      console.log(`upload: ${upload.map(ms).join(", ")}`);
    }

    // 3b. The same pipeline in a process of its own, for its memory.
    const photoFile = path.join(dataDir, "ten-megabytes.jpg");
    fs.writeFileSync(photoFile, photo.data);
    const child = await measurePhotoInChild(photoFile);
    const output = await processPhoto(photo.data);
    const markdown = customerSection({
      database,
      queries,
      page,
      data,
      largest,
      upload,
      photo,
      output,
      child,
    });
    const file = writeSection("customer", markdown);
    console.log(`written to ${file}`);
  } finally {
    await server?.close();
    setStorage(undefined);
    setDatabase(undefined);
    await database.drop();
    process.env = savedEnv;
    resetEnvForTests();
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
}
