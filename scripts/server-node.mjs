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

export const SERVER_NODE_FLAGS = ["--max-semi-space-size=8"];

export const SERVER_NODE_ENV = { MALLOC_ARENA_MAX: "2" };
