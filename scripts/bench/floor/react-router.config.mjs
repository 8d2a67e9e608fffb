// The product's framework settings (react-router.config.ts): the route manifest as one file
// rather than a partial manifest in every document (ADR 110).
export default { ssr: true, routeDiscovery: { mode: "initial" } };
