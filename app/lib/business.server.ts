import { makeBusiness, type Business } from "./business";
import { env } from "./env.server";

let cached: Business | undefined;

export function business(): Business {
  cached ??= makeBusiness({
    name: env().business.name,
    phone: env().business.phone,
    email: env().business.email,
  });
  return cached;
}
