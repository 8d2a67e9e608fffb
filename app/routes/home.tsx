import type { Route } from "./+types/home";
import { CITY_PATHS } from "~/content/city-paths";
import { faqItems } from "~/content/faq";
import { homeCopy } from "~/content/home";
import { HOW_IT_WORKS } from "~/content/how-it-works";
import { MEMBERSHIP_INCLUSIONS, PLAN_TERMS, PLANS } from "~/content/plans";
import { twoHandymenTerm } from "~/lib/two-handymen";
import { SERVED_PLACES } from "~/content/service-area";
import { NOT_COVERED, SERVICE_GROUPS } from "~/content/services";
import { TESTIMONIALS } from "~/content/testimonials";
import { HomeContactForm } from "~/features/leads/components/home-contact-form";
import leadFormScript from "~/features/leads/lead-form.enhance?page-script";
import { redirectAfterLead } from "~/features/leads/sent.server";
import { answer } from "~/lib/form-answer.server";
import { LEAD_HTTP_STATUS, leadPageUrl, submitHomeLead } from "~/features/leads/submit.server";
import {
  AboutSection,
  ContactSection,
  FaqSection,
  GuaranteeSection,
  HeroSection,
  HowItWorksSection,
  PricingSection,
  ServicesSection,
  TestimonialsSection,
} from "~/features/marketing/components/home-sections";
import { faqPageJsonLd, localBusinessJsonLd, pageMeta } from "~/features/marketing/seo.server";
import { business } from "~/lib/business.server";
import type { PageHandle } from "~/lib/page-scripts";
import { PICTURE_SIZES, pictureHtml } from "~/lib/public-images.server";

/** No React in the browser (the public layout says so); the contact form's script (ADR 030). */
export const handle: PageHandle = { script: leadFormScript };

/*
 * The content is the loader's data (from app/content), not imported by the component: this
 * page is prerendered, so the content is in its HTML.
 */
export function loader() {
  const settings = business();
  const faq = faqItems(settings);
  const cityPaths: readonly string[] = CITY_PATHS;
  const copy = homeCopy(settings);
  return {
    meta: pageMeta({
      title: `${settings.name} | Your Dedicated Handyman in Metro Atlanta`,
      description:
        "One dedicated, licensed and insured handyman for a flat monthly price. Repairs, upgrades and upkeep across metro Atlanta, with a money-back satisfaction guarantee.",
      path: "/",
      jsonLd: [localBusinessJsonLd(SERVED_PLACES), faqPageJsonLd(faq)],
    }),
    copy,
    // Each section's picture, from its slot in the content (ADR 028).
    images: {
      hero: pictureHtml(copy.hero.image, { sizes: PICTURE_SIZES.hero, eager: true }),
      services: pictureHtml(copy.services.image),
      howItWorks: pictureHtml(copy.howItWorks.image),
      about: pictureHtml(copy.about.image),
      contact: pictureHtml(copy.contact.image, { sizes: PICTURE_SIZES.narrow }),
    },
    serviceGroups: SERVICE_GROUPS,
    notCovered: NOT_COVERED,
    steps: HOW_IT_WORKS,
    plans: PLANS,
    inclusions: MEMBERSHIP_INCLUSIONS,
    // The second handyman's fee from the business's setting (issue 46, ADR 091).
    terms: [...PLAN_TERMS, twoHandymenTerm(settings.secondHandymanFeeCents)],
    places: SERVED_PLACES.map((name) => {
      const path = `${name.toLowerCase().replace(/\s+/g, "-")}-handyman`;
      return { name, path: cityPaths.includes(path) ? `/${path}` : null };
    }),
    testimonials: TESTIMONIALS,
    faq,
  };
}

export const meta: Route.MetaFunction = ({ loaderData }) => loaderData?.meta ?? [];

export async function action({ request, context }: Route.ActionArgs) {
  const result = await submitHomeLead(await request.formData(), {
    clientAddress: context.clientAddress,
    pageUrl: leadPageUrl(request, "/"),
  });
  return (
    redirectAfterLead(result, context, "/") ??
    answer(result, context, { status: LEAD_HTTP_STATUS[result.outcome] })
  );
}

export default function Home({ loaderData: d }: Route.ComponentProps) {
  const { copy, images } = d;
  return (
    <>
      <HeroSection hero={copy.hero} image={images.hero} />
      <ServicesSection
        copy={copy.services}
        image={images.services}
        serviceGroups={d.serviceGroups}
        notCovered={d.notCovered}
      />
      <HowItWorksSection copy={copy.howItWorks} image={images.howItWorks} steps={d.steps} />
      <PricingSection
        copy={copy.pricing}
        plans={d.plans}
        inclusions={d.inclusions}
        terms={d.terms}
      />
      <GuaranteeSection guarantee={copy.guarantee} />
      <AboutSection copy={copy.about} image={images.about} places={d.places} />
      <TestimonialsSection copy={copy.testimonials} testimonials={d.testimonials} />
      <FaqSection copy={copy.faq} faq={d.faq} />
      <ContactSection intro={copy.contact.intro} image={images.contact}>
        <HomeContactForm />
      </ContactSection>
    </>
  );
}
