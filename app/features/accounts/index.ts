/** What other features may use of this feature (ESLint enforces it); server code: ./index.server. */
export { ProfileMenu } from "./components/profile-menu";
export { StaticProfileMenu } from "./components/static-profile-menu";
