import type { MetaDescriptor } from "react-router";
import type { Business } from "~/lib/business";
import { business } from "~/lib/business.server";
import { env } from "~/lib/env.server";

/*
 * Search-engine tags for the public pages, built in their loaders so the browser bundle
 * carries none of this (the route's `meta` only returns what the loader built).
 */

export function canonicalUrl(path: string) {
  return `${env().publicUrl}${path}`;
}

type JsonLd = Record<string, unknown>;

export function pageMeta(options: {
  title: string;
  description: string;
  path: string;
  keywords?: string;
  jsonLd?: JsonLd[];
}): MetaDescriptor[] {
  const url = canonicalUrl(options.path);
  const name = business().name;
  return [
    { title: options.title },
    { name: "description", content: options.description },
    ...(options.keywords ? [{ name: "keywords", content: options.keywords }] : []),
    { tagName: "link", rel: "canonical", href: url },
    { property: "og:type", content: "website" },
    { property: "og:site_name", content: name },
    { property: "og:locale", content: "en_US" },
    { property: "og:title", content: options.title },
    { property: "og:description", content: options.description },
    { property: "og:url", content: url },
    { name: "twitter:card", content: "summary" },
    { name: "twitter:title", content: options.title },
    { name: "twitter:description", content: options.description },
    ...(options.jsonLd ?? []).map((data) => ({ "script:ld+json": data })),
  ];
}

/** schema.org LocalBusiness for the business, with the places a page says it serves. */
export function localBusinessJsonLd(
  areaServed: readonly string[],
  settings: Business = business(),
) {
  const home = canonicalUrl("/");
  return {
    "@context": "https://schema.org",
    "@type": "LocalBusiness",
    "@id": `${home}#business`,
    name: settings.name,
    description:
      "Flat-rate handyman membership for homeowners in metro Atlanta: one dedicated, licensed and insured handyman for repairs, upgrades and upkeep.",
    url: home,
    telephone: settings.phoneHref.replace(/^tel:/, ""),
    email: settings.email,
    priceRange: "$175-$550 per month",
    address: {
      "@type": "PostalAddress",
      addressLocality: "Atlanta",
      addressRegion: "GA",
      addressCountry: "US",
    },
    openingHoursSpecification: {
      "@type": "OpeningHoursSpecification",
      dayOfWeek: ["Monday", "Tuesday", "Wednesday", "Thursday", "Friday"],
      opens: "08:00",
      closes: "18:00",
    },
    areaServed: areaServed.map((place) => ({ "@type": "Place", name: place })),
  };
}

export function faqPageJsonLd(items: { question: string; answer: string[] }[]) {
  return {
    "@context": "https://schema.org",
    "@type": "FAQPage",
    mainEntity: items.map((item) => ({
      "@type": "Question",
      name: item.question,
      acceptedAnswer: { "@type": "Answer", text: item.answer.join(" ") },
    })),
  };
}
