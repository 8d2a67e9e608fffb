import type { Config } from "@react-router/dev/config";
import { CITY_PATHS } from "./app/content/city-paths";

export default {
  ssr: true,
  // Marketing pages are rendered to static HTML at build time and served by the Node server;
  // their forms still post to the server's actions.
  async prerender() {
    return ["/", "/book-call", ...CITY_PATHS.map((path) => `/${path}`)];
  },
} satisfies Config;
