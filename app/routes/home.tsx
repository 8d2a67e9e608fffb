import { Link } from "react-router";
import type { Route } from "./+types/home";
import { Icon } from "~/components/icons";
import { buttonVariants } from "~/components/ui/button-variants";
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
import { CARD, Section } from "~/features/marketing/components/section";
import { faqPageJsonLd, localBusinessJsonLd, pageMeta } from "~/features/marketing/seo.server";
import { business } from "~/lib/business.server";
import { useBusiness } from "~/lib/business";
import type { PageHandle } from "~/lib/page-scripts";
import { SlotPicture } from "~/lib/public-images";
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

const H3 = "text-lg font-semibold";
const MUTED = "text-muted-foreground";

export default function Home({ loaderData }: Route.ComponentProps) {
  const { phone, phoneHref } = useBusiness();
  const d = loaderData;
  const { copy } = d;
  return (
    <>
      <section
        aria-labelledby="hero-heading"
        className="bg-gradient-to-b from-secondary to-background px-4 pt-16 pb-20 sm:pt-24"
      >
        <div className="mx-auto max-w-4xl text-center">
          <p className="font-semibold text-primary">{copy.hero.eyebrow}</p>
          <h1
            id="hero-heading"
            className="mt-4 text-4xl font-bold tracking-tight text-balance sm:text-6xl"
          >
            {copy.hero.headline}
          </h1>
          <p className="mx-auto mt-6 max-w-2xl text-lg text-muted-foreground sm:text-xl">
            {copy.hero.intro}
          </p>
          <div className="mt-8 flex flex-col items-center justify-center gap-3 sm:flex-row">
            <a href="#pricing" role="button" className={buttonVariants({ size: "lg" })}>
              Let&apos;s Talk
            </a>
            {/* Wraps instead of overflowing: at 390 px the sentence is wider than the screen. */}
            <a
              href={phoneHref}
              className={buttonVariants({
                size: "lg",
                variant: "outline",
                className: "h-auto min-h-10 max-w-full py-2 text-center whitespace-normal",
              })}
            >
              <Icon name="phone" />
              Call {phone} for a free consultation
            </a>
          </div>
          <ul className="mt-10 flex flex-wrap justify-center gap-x-6 gap-y-2 text-sm font-medium">
            {copy.hero.claims.map((claim) => (
              <li key={claim} className="flex items-center gap-2">
                <Icon name="check" className="size-4 text-primary" />
                {claim}
              </li>
            ))}
          </ul>
          <SlotPicture html={d.images.hero} className="mx-auto mt-12 max-w-3xl" />
        </div>
      </section>

      <Section id="services" {...copy.services} image={d.images.services}>
        <div className="grid gap-6 lg:grid-cols-3">
          {d.serviceGroups.map((group) => (
            <div key={group.category} className={CARD}>
              <h3 className="text-xl font-bold text-primary">{group.category}</h3>
              <p className={`mt-1 text-sm ${MUTED}`}>{group.summary}</p>
              <ul className="mt-5 space-y-4">
                {group.services.map((service) => (
                  <li key={service.title}>
                    <h4 className="font-semibold">{service.title}</h4>
                    <p className={`text-sm ${MUTED}`}>{service.description}</p>
                  </li>
                ))}
              </ul>
            </div>
          ))}
        </div>
        <p className={`mt-8 text-center text-sm ${MUTED}`}>
          Not included: {d.notCovered.join(", ")}.
        </p>
      </Section>

      <Section id="how-it-works" {...copy.howItWorks} image={d.images.howItWorks} muted>
        <ol className="grid gap-6 sm:grid-cols-2 lg:grid-cols-4">
          {d.steps.map((step) => (
            <li key={step.step} className={CARD}>
              <span
                aria-hidden="true"
                className="flex size-10 items-center justify-center rounded-full bg-primary text-lg font-bold text-primary-foreground"
              >
                {step.step}
              </span>
              <h3 className={`mt-4 ${H3}`}>
                <span className="sr-only">Step {step.step}: </span>
                {step.title}
              </h3>
              <p className={`mt-2 text-sm ${MUTED}`}>{step.description}</p>
            </li>
          ))}
        </ol>
      </Section>

      <Section id="pricing" {...copy.pricing}>
        <div className="grid gap-6 lg:grid-cols-3">
          {d.plans.map((plan, i) => (
            <div
              key={plan.name}
              className={`${CARD} relative flex flex-col ${plan.badge === "Most Popular" ? "border-primary ring-2 ring-primary" : ""}`}
            >
              {plan.badge && (
                <p className="absolute -top-3 left-1/2 -translate-x-1/2 rounded-full bg-accent px-3 py-1 text-xs font-semibold text-accent-foreground">
                  {plan.badge}
                </p>
              )}
              <h3 id={`plan-${i}`} className="text-xl font-bold">
                {plan.name}
              </h3>
              <p className="mt-4">
                <span className="text-4xl font-bold">${plan.pricePerMonth}</span>
                <span className={MUTED}>/month</span>
              </p>
              <ul className="mt-4 space-y-1 text-sm font-medium">
                <li>{plan.hoursPerYear} hours per year</li>
                <li>{plan.visitsPerYear} visits per year</li>
              </ul>
              <p className={`mt-4 flex-1 text-sm ${MUTED}`}>{plan.description}</p>
              <Link
                to="/book-call"
                role="button"
                className={buttonVariants({
                  variant: plan.badge === "Most Popular" ? "default" : "outline",
                  className: "mt-6 w-full",
                })}
                aria-describedby={`plan-${i}`}
              >
                {plan.buttonText}
              </Link>
            </div>
          ))}
        </div>
        <div className="mt-12 grid gap-8 lg:grid-cols-2">
          <div>
            <h3 className={H3}>Every membership includes</h3>
            <ul className="mt-4 grid gap-2 text-sm">
              {d.inclusions.map((item) => (
                <li key={item} className="flex gap-2">
                  <Icon name="check" className="mt-0.5 size-4 shrink-0 text-primary" />
                  {item}
                </li>
              ))}
            </ul>
          </div>
          <div>
            <h3 className={H3}>Good to know</h3>
            <ul className={`mt-4 list-disc space-y-2 pl-5 text-sm ${MUTED}`}>
              {d.terms.map((term) => (
                <li key={term}>{term}</li>
              ))}
            </ul>
          </div>
        </div>
      </Section>

      <section aria-labelledby="guarantee-heading" className="bg-primary px-4 py-16">
        <div className="mx-auto flex max-w-4xl flex-col items-center text-center text-primary-foreground">
          <Icon name="shield" className="size-12" />
          <h2 id="guarantee-heading" className="mt-4 text-3xl font-bold">
            {copy.guarantee.title}
          </h2>
          <p className="mt-4 max-w-2xl text-lg">{copy.guarantee.intro}</p>
        </div>
      </section>

      <Section id="about" {...copy.about} image={d.images.about} muted>
        <ul className="mx-auto grid max-w-4xl grid-cols-2 gap-3 sm:grid-cols-3 lg:grid-cols-4">
          {d.places.map((place) => (
            <li
              key={place.name}
              className="flex items-center gap-2 rounded-lg border bg-background p-3 font-medium"
            >
              <Icon name="pin" className="size-4 shrink-0 text-primary" />
              {place.path ? (
                <Link to={place.path} className="underline-offset-4 hover:underline">
                  {place.name}
                </Link>
              ) : (
                place.name
              )}
            </li>
          ))}
        </ul>
      </Section>

      <Section id="testimonials" {...copy.testimonials}>
        <ul className="grid gap-6 lg:grid-cols-3">
          {d.testimonials.map((t) => (
            <li key={t.name} className={CARD}>
              <figure className="flex h-full flex-col">
                <p
                  role="img"
                  aria-label={`Rated ${t.rating} out of 5 stars`}
                  className="flex gap-1 text-accent-foreground"
                >
                  {Array.from({ length: t.rating }, (_, i) => (
                    <Icon key={i} name="star" filled className="size-5" />
                  ))}
                </p>
                <blockquote className="mt-4 flex-1">
                  <p>&ldquo;{t.text}&rdquo;</p>
                </blockquote>
                <figcaption className="mt-4 text-sm">
                  <span className="font-semibold">{t.name}</span>
                  <span className={MUTED}>, {t.location}</span>
                </figcaption>
              </figure>
            </li>
          ))}
        </ul>
      </Section>

      <Section id="faq" title={copy.faq.title} muted>
        <div className="mx-auto max-w-3xl divide-y rounded-xl border bg-background px-4 sm:px-6">
          {/*
            Native exclusive accordion: one open at a time, with or without JavaScript. Each
            question is a button named by its text; components/disclosure.ts adds aria-expanded.
          */}
          {d.faq.map((item) => (
            <details key={item.id} name="faq" className="group">
              <summary
                role="button"
                aria-controls={`faq-${item.id}`}
                className="flex cursor-pointer list-none items-center justify-between gap-4 py-4 font-medium hover:underline [&::-webkit-details-marker]:hidden"
              >
                {item.question}
                <Icon
                  name="chevron"
                  className="size-4 shrink-0 text-muted-foreground transition-transform group-open:rotate-180"
                />
              </summary>
              <div id={`faq-${item.id}`} className={`space-y-3 pb-4 text-sm ${MUTED}`}>
                {item.answer.map((paragraph) => (
                  <p key={paragraph}>{paragraph}</p>
                ))}
              </div>
            </details>
          ))}
        </div>
        <div className="mt-8 text-center">
          <p className={MUTED}>{copy.faq.intro}</p>
          <a
            href="#contact"
            role="button"
            className={buttonVariants({ size: "lg", className: "mt-4" })}
          >
            Get Started
          </a>
        </div>
      </Section>

      <section aria-labelledby="contact-heading" id="contact" className="scroll-mt-16 px-4 py-20">
        <div className="mx-auto max-w-xl">
          <div className="text-center">
            <h2 id="contact-heading" className="text-3xl font-bold tracking-tight sm:text-4xl">
              Ready to Get Started?
            </h2>
            <p className={`mt-4 text-lg ${MUTED}`}>{copy.contact.intro}</p>
          </div>
          <SlotPicture html={d.images.contact} className="mt-8" />
          <div className={`mt-8 ${CARD}`}>
            <HomeContactForm />
          </div>
          <p className={`mt-6 text-center text-sm ${MUTED}`}>
            No obligation • Free home evaluation • Serving Metro Atlanta
          </p>
        </div>
      </section>
    </>
  );
}
