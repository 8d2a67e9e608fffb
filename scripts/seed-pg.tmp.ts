import { seed, benchSeed } from "./bench/pages";
import { createDatabase } from "../tests/support/processes";
const db = await createDatabase(process.env.TEST_DATABASE_URL);
await seed({ databaseUrl: db.url }, await benchSeed());
console.log(db.url);
process.exit(0);
