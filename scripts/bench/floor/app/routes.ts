import { index, route, type RouteConfig } from "@react-router/dev/routes";

export default [
  index("routes/home.tsx"),
  route("form", "routes/form.tsx"),
  route("list", "routes/list.tsx"),
] satisfies RouteConfig;
