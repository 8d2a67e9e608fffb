import fs from "node:fs";
import js from "@eslint/js";
import globals from "globals";
import reactHooks from "eslint-plugin-react-hooks";
import tseslint from "typescript-eslint";

/*
 * The layers, enforced (as Bulletproof React does): routes compose features; features, shared
 * components and the library never import a route (or the root route); primitives
 * (components/ui), the library, the database schema and the content never import a feature;
 * nothing the production server runs imports the tests; one feature uses another only through
 * its public entries, `~/features/<name>` (index.ts) and `~/features/<name>/index.server`.
 * A rule's options replace each other from block to block, so each zone lists all its patterns.
 * scripts/lint-zones.test.ts checks that a wrong import in each zone fails.
 */
const FEATURE_SERVER_MODULES = {
  group: ["**/features/*/*.server", "**/features/*/*.server.ts"],
  message: "Import server modules of a feature only from routes or that feature.",
};
const ROUTES = {
  group: ["~/routes/**", "**/routes/**", "~/root", "**/root", "**/+types/**"],
  message: "Routes compose features and components, never the other way round.",
};
const FEATURES = {
  group: ["~/features/**", "**/features/**"],
  message:
    "Primitives, the library, the schema and the content sit below the features: move the shared code down instead.",
};
const WORKFLOWS = {
  group: ["~/workflows/**", "**/workflows/**"],
  message:
    "A workflow composes features (ADR 090): routes and the server import it, features and the library never do.",
};
const TESTS = {
  group: ["**/tests/**"],
  message:
    "Production code never imports the tests: shared data builders live in server/seed/ (the demo seed and the factories).",
};
/** Inside feature `own`: any other feature's modules but its public entries. */
const otherFeaturesInternals = (own) => ({
  group: [
    "~/features/*/**",
    `!~/features/${own}/**`,
    "!~/features/*/index.server",
    "**/features/*/**",
    `!**/features/${own}/**`,
    "!**/features/*/index.server",
    // A relative path into a sibling folder (no feature climbs out of its own folder that way).
    "../*/**",
    "../../*/**",
  ],
  message:
    "Another feature is used only through its public entry: ~/features/<name> or ~/features/<name>/index.server (export what you need there).",
});
const FEATURE_NAMES = fs
  .readdirSync(new URL("./app/features", import.meta.url), { withFileTypes: true })
  .filter((entry) => entry.isDirectory())
  .map((entry) => entry.name);

const zone = (files, patterns) => ({
  files,
  ignores: ["**/*.test.ts", "**/*.test.tsx"],
  rules: { "no-restricted-imports": ["error", { patterns }] },
});

export default tseslint.config(
  {
    ignores: [
      "build/",
      "data/",
      ".react-router/",
      "node_modules/",
      "test-results/",
      "playwright-report/",
      ".tmp/",
      "drizzle/",
    ],
  },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: { globals: { ...globals.node, ...globals.browser } },
    plugins: { "react-hooks": reactHooks },
    rules: {
      ...reactHooks.configs.recommended.rules,
      "react-hooks/set-state-in-effect": "off",
      "@typescript-eslint/no-unused-vars": [
        "error",
        { argsIgnorePattern: "^_", varsIgnorePattern: "^_" },
      ],
      "@typescript-eslint/consistent-type-imports": ["error", { fixStyle: "inline-type-imports" }],
      "no-empty-pattern": "off",
      // The browser bundle never imports a feature's server code.
      "no-restricted-imports": ["error", { patterns: [FEATURE_SERVER_MODULES] }],
    },
  },
  {
    // Playwright fixtures call `use`, which is not React's hook.
    files: ["tests/e2e/**"],
    rules: { "react-hooks/rules-of-hooks": "off" },
  },
  {
    // Route modules compose features: they may import any feature's server module.
    files: [
      "app/routes/**",
      "app/features/**",
      "app/workflows/**",
      "server/**",
      "scripts/**",
      "tests/**",
    ],
    rules: { "no-restricted-imports": "off" },
  },
  // The production server, its start-up and the admin CLI (scripts/*.ts; the benchmarks under
  // scripts/bench may use the tests' process helpers).
  zone(["server/**", "scripts/*.ts", "app/routes/**"], [TESTS]),
  zone(["app/*.ts", "app/*.tsx"], [FEATURE_SERVER_MODULES, TESTS]),
  ...FEATURE_NAMES.map((name) =>
    zone([`app/features/${name}/**`], [ROUTES, TESTS, WORKFLOWS, otherFeaturesInternals(name)]),
  ),
  // Workflows use each feature only through its public entries.
  zone(
    ["app/workflows/**"],
    [
      ROUTES,
      TESTS,
      {
        group: [
          "~/features/*/**",
          "!~/features/*/index.server",
          "**/features/*/**",
          "!**/features/*/index.server",
        ],
        message:
          "A workflow uses each feature through its public entry: ~/features/<name>/index.server.",
      },
    ],
  ),
  zone(["app/components/**"], [FEATURE_SERVER_MODULES, ROUTES, TESTS, WORKFLOWS]),
  zone(
    ["app/components/ui/**", "app/lib/**", "app/db/**", "app/content/**"],
    [FEATURE_SERVER_MODULES, ROUTES, FEATURES, TESTS, WORKFLOWS],
  ),
);
