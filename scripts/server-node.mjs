// How Node runs the production server, wherever it is started: `npm start` (package.json), the
// systemd unit (deploy/systemd/handyman@.service), and the tests and benches
// (tests/support/processes.ts), so what is measured is what ships. scripts/server-node.test.ts
// checks that package.json and the unit say the same.
//
// --max-semi-space-size=8: V8 otherwise grows its young generation to its default maximum
// during start-up (rendering the public pages, migrating, seeding) and keeps those pages
// committed: the embedded-database server held about 400 MB resident after start, 260 MB with
// 8 MB semi-spaces, at the same throughput (docs/benchmarks.md, "Light at rest").
// MALLOC_ARENA_MAX=2: glibc's per-thread malloc arenas (PGlite, libuv's pool, sharp) otherwise
// each keep their own free memory.
// MALLOC_MMAP_THRESHOLD_=131072: glibc maps every block of 128 KB or more on its own and unmaps
// it when freed. By default that threshold rises with each large block freed, up to 32 MB, so
// the large blocks used for a moment during start-up came from the arenas and left holes there
// that glibc never returns: about 40 MB resident for the life of the process. A lower threshold (32 KB) would also catch V8's compiler zones but
// maps every rendered page's body too, at 15% more CPU per page: ADR 036.

export const SERVER_NODE_FLAGS = ["--max-semi-space-size=8"];

export const SERVER_NODE_ENV = { MALLOC_ARENA_MAX: "2", MALLOC_MMAP_THRESHOLD_: "131072" };
