import type { ReactNode } from "react";
import { Link } from "react-router";
import { Icon } from "~/components/icons";
import { buttonVariants } from "~/components/ui/button-variants";
import type { FaqItem } from "~/content/faq";
import type { homeCopy } from "~/content/home";
import type { ProcessStep } from "~/content/how-it-works";
import type { MembershipPlan } from "~/content/plans";
import type { ServiceGroup } from "~/content/services";
import type { Testimonial } from "~/content/testimonials";
import { useBusiness } from "~/lib/business";
import { SlotPicture } from "~/lib/public-images";
import { CARD, Section } from "./section";

/*
 * The home page's sections, in page order: markup only, the page runs no React in the browser
 * (docs/decisions/030). Each takes its part of the route's loader data.
 */

type HomeCopy = ReturnType<typeof homeCopy>;

const H3 = "text-lg font-semibold";
const MUTED = "text-muted-foreground";

export function HeroSection({ hero, image }: { hero: HomeCopy["hero"]; image: string }) {
  const { phone, phoneHref } = useBusiness();
  return (
    <section
      aria-labelledby="hero-heading"
      className="bg-gradient-to-b from-secondary to-background px-4 pt-16 pb-20 sm:pt-24"
    >
      <div className="mx-auto max-w-4xl text-center">
        <p className="font-semibold text-primary">{hero.eyebrow}</p>
        <h1
          id="hero-heading"
          className="mt-4 text-4xl font-bold tracking-tight text-balance sm:text-6xl"
        >
          {hero.headline}
        </h1>
        <p className="mx-auto mt-6 max-w-2xl text-lg text-muted-foreground sm:text-xl">
          {hero.intro}
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
          {hero.claims.map((claim) => (
            <li key={claim} className="flex items-center gap-2">
              <Icon name="check" className="size-4 text-primary" />
              {claim}
            </li>
          ))}
        </ul>
        <SlotPicture html={image} className="mx-auto mt-12 max-w-3xl" />
      </div>
    </section>
  );
}

export function ServicesSection({
  copy,
  image,
  serviceGroups,
  notCovered,
}: {
  copy: HomeCopy["services"];
  image: string;
  serviceGroups: ServiceGroup[];
  notCovered: string[];
}) {
  return (
    <Section id="services" {...copy} image={image}>
      <div className="grid gap-6 lg:grid-cols-3">
        {serviceGroups.map((group) => (
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
      <p className={`mt-8 text-center text-sm ${MUTED}`}>Not included: {notCovered.join(", ")}.</p>
    </Section>
  );
}

export function HowItWorksSection({
  copy,
  image,
  steps,
}: {
  copy: HomeCopy["howItWorks"];
  image: string;
  steps: ProcessStep[];
}) {
  return (
    <Section id="how-it-works" {...copy} image={image} muted>
      <ol className="grid gap-6 sm:grid-cols-2 lg:grid-cols-4">
        {steps.map((step) => (
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
  );
}

function PlanCard({ plan, index }: { plan: MembershipPlan; index: number }) {
  return (
    <div
      className={`${CARD} relative flex flex-col ${plan.badge === "Most Popular" ? "border-primary ring-2 ring-primary" : ""}`}
    >
      {plan.badge && (
        <p className="absolute -top-3 left-1/2 -translate-x-1/2 rounded-full bg-accent px-3 py-1 text-xs font-semibold text-accent-foreground">
          {plan.badge}
        </p>
      )}
      <h3 id={`plan-${index}`} className="text-xl font-bold">
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
        aria-describedby={`plan-${index}`}
      >
        {plan.buttonText}
      </Link>
    </div>
  );
}

export function PricingSection({
  copy,
  plans,
  inclusions,
  terms,
}: {
  copy: HomeCopy["pricing"];
  plans: MembershipPlan[];
  inclusions: readonly string[];
  terms: readonly string[];
}) {
  return (
    <Section id="pricing" {...copy}>
      <div className="grid gap-6 lg:grid-cols-3">
        {plans.map((plan, i) => (
          <PlanCard key={plan.name} plan={plan} index={i} />
        ))}
      </div>
      <div className="mt-12 grid gap-8 lg:grid-cols-2">
        <div>
          <h3 className={H3}>Every membership includes</h3>
          <ul className="mt-4 grid gap-2 text-sm">
            {inclusions.map((item) => (
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
            {terms.map((term) => (
              <li key={term}>{term}</li>
            ))}
          </ul>
        </div>
      </div>
    </Section>
  );
}

export function GuaranteeSection({ guarantee }: { guarantee: HomeCopy["guarantee"] }) {
  return (
    <section aria-labelledby="guarantee-heading" className="bg-primary px-4 py-16">
      <div className="mx-auto flex max-w-4xl flex-col items-center text-center text-primary-foreground">
        <Icon name="shield" className="size-12" />
        <h2 id="guarantee-heading" className="mt-4 text-3xl font-bold">
          {guarantee.title}
        </h2>
        <p className="mt-4 max-w-2xl text-lg">{guarantee.intro}</p>
      </div>
    </section>
  );
}

export function AboutSection({
  copy,
  image,
  places,
}: {
  copy: HomeCopy["about"];
  image: string;
  places: { name: string; path: string | null }[];
}) {
  return (
    <Section id="about" {...copy} image={image} muted>
      <ul className="mx-auto grid max-w-4xl grid-cols-2 gap-3 sm:grid-cols-3 lg:grid-cols-4">
        {places.map((place) => (
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
  );
}

export function TestimonialsSection({
  copy,
  testimonials,
}: {
  copy: HomeCopy["testimonials"];
  testimonials: Testimonial[];
}) {
  return (
    <Section id="testimonials" {...copy}>
      <ul className="grid gap-6 lg:grid-cols-3">
        {testimonials.map((t) => (
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
  );
}

export function FaqSection({ copy, faq }: { copy: HomeCopy["faq"]; faq: FaqItem[] }) {
  return (
    <Section id="faq" title={copy.title} muted>
      <div className="mx-auto max-w-3xl divide-y rounded-xl border bg-background px-4 sm:px-6">
        {/*
          Native exclusive accordion: one open at a time, with or without JavaScript. Each
          question is a button named by its text; components/disclosure.ts adds aria-expanded.
        */}
        {faq.map((item) => (
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
        <p className={MUTED}>{copy.intro}</p>
        <a
          href="#contact"
          role="button"
          className={buttonVariants({ size: "lg", className: "mt-4" })}
        >
          Get Started
        </a>
      </div>
    </Section>
  );
}

/** The closing section; its form (the leads feature's) comes in as `children`. */
export function ContactSection({
  intro,
  image,
  children,
}: {
  intro: ReactNode;
  image: string;
  children: ReactNode;
}) {
  return (
    <section aria-labelledby="contact-heading" id="contact" className="scroll-mt-16 px-4 py-20">
      <div className="mx-auto max-w-xl">
        <div className="text-center">
          <h2 id="contact-heading" className="text-3xl font-bold tracking-tight sm:text-4xl">
            Ready to Get Started?
          </h2>
          <p className={`mt-4 text-lg ${MUTED}`}>{intro}</p>
        </div>
        <SlotPicture html={image} className="mt-8" />
        <div className={`mt-8 ${CARD}`}>{children}</div>
        <p className={`mt-6 text-center text-sm ${MUTED}`}>
          No obligation • Free home evaluation • Serving Metro Atlanta
        </p>
      </div>
    </section>
  );
}
