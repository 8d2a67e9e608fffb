import { makeBusiness, type Business } from "./business";
import { env } from "./env.server";

let cached: Business | undefined;
let cachedFrom: ReturnType<typeof env> | undefined;

export function business(): Business {
  // Built again when the settings are read again (tests change them between runs).
  if (!cached || cachedFrom !== env()) {
    cachedFrom = env();
    cached = makeBusiness({
      name: env().business.name,
      phone: env().business.phone,
      email: env().business.email,
      secondHandymanFeeCents: env().business.secondHandymanFeeCents,
    });
  }
  return cached;
}
