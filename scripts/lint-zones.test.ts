import path from "node:path";
import { ESLint } from "eslint";
import { beforeAll, describe, expect, it } from "vitest";

/*
 * The layering rules of eslint.config.js, run through ESLint itself on code written as if it sat
 * at a path of the app: each wrong import is refused, and the imports the layers allow pass.
 */

const root = path.resolve(import.meta.dirname, "..");
let eslint: ESLint;

beforeAll(() => {
  eslint = new ESLint({ cwd: root });
});

/** The messages of the layering rule for `code` placed at `file`. */
async function layeringErrors(file: string, code: string) {
  const [result] = await eslint.lintText(code, { filePath: path.join(root, file) });
  return result.messages
    .filter((message) => message.ruleId === "no-restricted-imports")
    .map((message) => message.message);
}

const refused: [zone: string, file: string, code: string][] = [
  [
    "a feature importing a workflow",
    "app/features/visits/fixture.ts",
    'import { cancelMembership } from "~/workflows/cancel-membership.server";\nexport { cancelMembership };',
  ],
  [
    "the library importing a workflow",
    "app/lib/fixture.ts",
    'import { cancelMembership } from "~/workflows/cancel-membership.server";\nexport { cancelMembership };',
  ],
  [
    "a workflow importing a feature's inner module",
    "app/workflows/fixture.server.ts",
    'import { settleMembershipCancel } from "~/features/memberships/cancel.server";\nexport { settleMembershipCancel };',
  ],
  [
    "a feature importing a route",
    "app/features/leads/fixture.ts",
    'import { loader } from "~/routes/home";\nexport { loader };',
  ],
  [
    "a feature importing a route, relatively",
    "app/features/leads/fixture.ts",
    'import { loader } from "../../routes/home";\nexport { loader };',
  ],
  [
    "a feature importing a route's types",
    "app/features/leads/fixture.ts",
    'import type { Route } from "~/routes/+types/home";\nexport type R = Route.LoaderArgs;',
  ],
  [
    "a feature importing the root route",
    "app/features/leads/fixture.ts",
    'import { loader } from "~/root";\nexport { loader };',
  ],
  [
    "a layout component importing the root route",
    "app/components/layout/fixture.tsx",
    'import { loader } from "~/root";\nexport { loader };',
  ],
  [
    "a layout component importing a feature's server module",
    "app/components/layout/fixture.tsx",
    'import { saveLead } from "~/features/leads/submit.server";\nexport { saveLead };',
  ],
  [
    "a primitive importing a feature",
    "app/components/ui/fixture.tsx",
    'import { statusLabel } from "~/features/service-requests/schema";\nexport { statusLabel };',
  ],
  [
    "a primitive importing a feature, relatively",
    "app/components/ui/fixture.tsx",
    'import { statusLabel } from "../../features/service-requests/schema";\nexport { statusLabel };',
  ],
  [
    "the library importing a feature",
    "app/lib/fixture.ts",
    'import { startMembershipSchema } from "~/features/memberships/schema";\nexport { startMembershipSchema };',
  ],
  [
    "the library importing a route",
    "app/lib/fixture.ts",
    'import { loader } from "~/routes/employee";\nexport { loader };',
  ],
  [
    "the schema importing a feature",
    "app/db/fixture.ts",
    'import { statusLabel } from "~/features/service-requests/schema";\nexport { statusLabel };',
  ],
  [
    "the server importing the tests",
    "server/fixture.ts",
    'import { world } from "../tests/support/world";\nexport { world };',
  ],
  [
    "the admin CLI importing the tests",
    "scripts/fixture.ts",
    'import { sink } from "../tests/e2e/fixtures";\nexport { sink };',
  ],
  [
    "a feature importing the tests",
    "app/features/leads/fixture.ts",
    'import { world } from "../../../tests/support/world";\nexport { world };',
  ],
  [
    "a feature importing another feature's module",
    "app/features/memberships/fixture.ts",
    'import { withdrawFromCalendar } from "~/features/visits/visits.server";\nexport { withdrawFromCalendar };',
  ],
  [
    "a feature importing another feature's component",
    "app/features/employee/components/fixture.tsx",
    'import { MembershipLink } from "~/features/memberships/components/membership-link";\nexport { MembershipLink };',
  ],
  [
    "a feature importing another feature's module, relatively",
    "app/features/memberships/fixture.ts",
    'import { withdrawFromCalendar } from "../visits/visits.server";\nexport { withdrawFromCalendar };',
  ],
  [
    "a feature importing the home record's internals",
    "app/features/visits/fixture.ts",
    'import { homeRecord } from "~/features/home/record.server";\nexport { homeRecord };',
  ],
  [
    "the home record importing another feature's module",
    "app/features/home/fixture.ts",
    'import { bookVisit } from "~/features/visits/visits.server";\nexport { bookVisit };',
  ],
  [
    "a feature's component importing another feature's module, relatively",
    "app/features/employee/components/fixture.tsx",
    'import { statusLabel } from "../../service-requests/schema";\nexport { statusLabel };',
  ],
  [
    "the library importing the tests",
    "app/lib/fixture.ts",
    'import { world } from "../../tests/support/world";\nexport { world };',
  ],
];

const allowed: [what: string, file: string, code: string][] = [
  [
    "a workflow importing features' server entries",
    "app/workflows/fixture.server.ts",
    'import { queueRefund } from "~/features/payments/index.server";\nimport { changeVisitState } from "~/features/visits/index.server";\nexport { queueRefund, changeVisitState };',
  ],
  [
    "a route importing a workflow",
    "app/routes/fixture.tsx",
    'import { cancelMembership } from "~/workflows/cancel-membership.server";\nexport { cancelMembership };',
  ],
  [
    "a route importing a feature's server module",
    "app/routes/fixture.ts",
    'import { saveLead } from "~/features/leads/submit.server";\nexport { saveLead };',
  ],
  [
    "a feature importing the library",
    "app/features/leads/fixture.ts",
    'import { isUuid } from "~/lib/uuid";\nexport { isUuid };',
  ],
  [
    "a feature importing a primitive",
    "app/features/leads/fixture.tsx",
    'import { Button } from "~/components/ui/button";\nexport { Button };',
  ],
  [
    "a feature importing another feature's public entry",
    "app/features/employee/components/fixture.tsx",
    'import { MembershipLink } from "~/features/memberships";\nexport { MembershipLink };',
  ],
  [
    "a feature importing another feature's server entry",
    "app/features/memberships/fixture.ts",
    'import { withdrawFromCalendar } from "~/features/visits/index.server";\nexport { withdrawFromCalendar };',
  ],
  [
    "a feature importing its own modules",
    "app/features/visits/components/fixture.tsx",
    'import { withdrawFromCalendar } from "~/features/visits/visits.server";\nimport { bookingHref } from "../booking-steps";\nexport { withdrawFromCalendar, bookingHref };',
  ],
  [
    "a layout component importing the library",
    "app/components/layout/fixture.tsx",
    'import { useBusiness } from "~/lib/business";\nexport { useBusiness };',
  ],
  [
    "the server importing the demo seed's factories",
    "server/fixture.ts",
    'import { createUser } from "./seed/factories";\nexport { createUser };',
  ],
  [
    "a test importing the factories",
    "tests/integration/fixture.test.ts",
    'import { createUser } from "../../server/seed/factories";\nexport { createUser };',
  ],
  [
    "the library importing the library",
    "app/lib/fixture.ts",
    'import { UUID_PATTERN } from "./uuid";\nexport { UUID_PATTERN };',
  ],
];

describe("the layers in eslint.config.js", () => {
  it.each(refused)("refuses %s", async (_zone, file, code) => {
    const errors = await layeringErrors(file, code);
    expect(errors.length).toBeGreaterThan(0);
  });

  it.each(allowed)("allows %s", async (_what, file, code) => {
    expect(await layeringErrors(file, code)).toEqual([]);
  });

  it("explains the refusal", async () => {
    const [message] = await layeringErrors(
      "app/features/leads/fixture.ts",
      'import { loader } from "~/routes/home";\nexport { loader };',
    );
    expect(message).toContain("Routes compose features and components, never the other way round.");
  });
});
