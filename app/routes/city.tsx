import type { ReactNode } from "react";
import { data, Link, redirect, useActionData } from "react-router";
import type { Route } from "./+types/city";
import { Icon, type IconName } from "~/components/icons";
import { buttonVariants } from "~/components/ui/button-variants";
import {
  CITY_IMAGES,
  CITY_PAGES,
  type Card,
  type CityPage,
  type ServiceCategory,
} from "~/content/cities";
import { CITY_PATHS, type CityPath } from "~/content/city-paths";
import { HOW_IT_WORKS } from "~/content/how-it-works";
import { CityContactForm } from "~/features/leads/components/city-contact-form";
import leadFormScript from "~/features/leads/lead-form.enhance?page-script";
import { LEAD_ANSWER_FRAGMENT } from "~/features/leads/sent";
import { redirectAfterLead } from "~/features/leads/sent.server";
import { answer } from "~/lib/form-answer.server";
import { LEAD_HTTP_STATUS, leadPageUrl, submitCityLead } from "~/features/leads/submit.server";
import { CARD, Section } from "~/features/marketing/components/section";
import { localBusinessJsonLd, pageMeta } from "~/features/marketing/seo.server";
import { business } from "~/lib/business.server";
import { useBusiness } from "~/lib/business";
import type { PageHandle } from "~/lib/page-scripts";
import { SlotPicture } from "~/lib/public-images";
import { PICTURE_SIZES, pictureHtml } from "~/lib/public-images.server";

/*
 * One module for the 11 city pages (docs/product.md section 2): the page is picked by its path from
 * app/content/cities.ts. As on the home page, the content comes through the loader, so the
 * prerendered HTML carries it.
 */

/**
 * No React in the browser (the public layout says so); the contact form's script on the pages
 * that have the form (ADR 030).
 */
export const handle: PageHandle<{ page: CityPage } | undefined> = {
  script: (data) => (data?.page.layout === "lead" ? leadFormScript : undefined),
};

/**
 * The city page a request is for. Route matching ignores letter case, so /Dunwoody-Handyman
 * reaches this module too: a page view of it moves for good (301) to the one spelling that is
 * prerendered, indexed and linked, keeping the query string.
 */
function cityPath(request: Request, { redirectCase = false } = {}): CityPath {
  const url = new URL(request.url);
  const path = url.pathname.replace(/^\/|\/$/g, "");
  const known: readonly string[] = CITY_PATHS;
  if (known.includes(path)) return path as CityPath;
  const lower = path.toLowerCase();
  if (redirectCase && known.includes(lower)) throw redirect(`/${lower}${url.search}`, 301);
  throw data("Not found", { status: 404 });
}

export function loader({ request }: Route.LoaderArgs) {
  const path = cityPath(request, { redirectCase: true });
  const page = CITY_PAGES[path];
  return {
    path,
    page,
    steps: page.layout === "lead" ? HOW_IT_WORKS : [],
    // The page's pictures, from their slots in the content (ADR 028).
    images: {
      hero: pictureHtml(CITY_IMAGES.hero, { sizes: PICTURE_SIZES.hero, eager: true }),
      about: pictureHtml(CITY_IMAGES.about),
    },
    meta: pageMeta({
      title: `${page.title} | ${business().name}`,
      description: page.description,
      keywords: page.keywords,
      path: `/${path}`,
      jsonLd: [localBusinessJsonLd([page.city, ...page.serviceAreas])],
    }),
  };
}

export const meta: Route.MetaFunction = ({ loaderData }) => loaderData?.meta ?? [];

export async function action({ request, context }: Route.ActionArgs) {
  const path = cityPath(request);
  const result = await submitCityLead(await request.formData(), {
    clientAddress: context.clientAddress,
    pageUrl: leadPageUrl(request, `/${path}`),
    source: path,
  });
  return (
    redirectAfterLead(result, context, `/${path}`) ??
    answer(result, context, { status: LEAD_HTTP_STATUS[result.outcome] })
  );
}

const MUTED = "text-muted-foreground";
const FEATURE_ICONS: IconName[] = ["pin", "star", "shield"];

export default function CityPageRoute({ loaderData }: Route.ComponentProps) {
  const { path, page, steps, images } = loaderData;
  // A page without the form still answers a post to its action (a client without the page's
  // script): with the form, what was typed and the messages beside the fields.
  const answered = useActionData() !== undefined;
  return (
    <>
      <Hero page={page} image={images.hero} />
      {page.layout === "signature" && (
        <>
          <Categories id="services" title={`Services We Offer in ${page.city}`} page={page} />
          <CardGrid
            id="why-choose"
            title={`Why ${page.city} Homeowners Choose Us`}
            cards={page.whyChoose}
            muted
          />
          <About id="about" about={page.about} image={images.about} />
          <Areas page={page} title={`Areas We Serve Around ${page.city}`} muted />
          <Closing page={page} />
        </>
      )}
      {page.layout === "neighborhood" && (
        <>
          <Categories
            id="services"
            title={`Our ${page.city} Handyman Services`}
            intro={page.servicesIntro}
            page={page}
          />
          <CardGrid id="reasons" title={`Why ${page.city} Chooses Us`} cards={page.reasons} muted />
          <About id="about" about={page.about} image={images.about} />
          <Areas page={page} title={`Serving ${page.city} and Nearby`} muted />
          <Closing page={page} />
        </>
      )}
      {page.layout === "lead" && (
        <>
          <Categories
            id="services"
            title={`Handyman Services in ${page.city}`}
            intro={page.servicesIntro}
            page={page}
          />
          <CardGrid
            id="homes"
            title={page.homes.heading}
            intro={page.homes.intro}
            cards={page.homes.cards}
            muted
          />
          <Section id="membership" title="How Membership Works" intro={page.membershipIntro}>
            <ol className="grid gap-6 sm:grid-cols-2 lg:grid-cols-4">
              {steps.map((step) => (
                <li key={step.step} className={CARD}>
                  <p className="text-sm font-semibold text-primary">Step {step.step}</p>
                  <h3 className="mt-2 text-lg font-semibold">{step.title}</h3>
                  <p className={`mt-2 text-sm ${MUTED}`}>{step.description}</p>
                </li>
              ))}
            </ol>
          </Section>
          <CardGrid
            id="reasons"
            title={`Why ${page.city} Homeowners Choose Us`}
            cards={page.reasons}
            muted
          />
          <Areas
            page={page}
            title={`Neighborhoods We Serve in ${page.city}`}
            intro={page.neighborhoodsIntro}
          />
          <CardGrid id="seasons" title={page.seasons.heading} cards={page.seasons.items} muted />
          <CityContact page={page} path={path} />
        </>
      )}
      {page.layout !== "lead" && answered && <CityContact page={page} path={path} />}
    </>
  );
}

function Hero({ page, image }: { page: CityPage; image: string }) {
  const { phone, phoneHref } = useBusiness();
  const outline = buttonVariants({ size: "lg", variant: "outline" });
  return (
    <section
      aria-labelledby="hero-heading"
      className="bg-gradient-to-b from-secondary to-background px-4 pt-16 pb-16 sm:pt-24"
    >
      <div className="mx-auto max-w-6xl">
        <div className="mx-auto max-w-3xl text-center">
          <p className="font-semibold text-primary">{page.city}, Georgia</p>
          <h1
            id="hero-heading"
            className="mt-4 text-4xl font-bold tracking-tight text-balance sm:text-5xl"
          >
            {page.headline}
          </h1>
          <p className={`mt-6 text-lg ${MUTED}`}>{page.intro}</p>
          <div className="mt-8 flex flex-col items-center justify-center gap-3 sm:flex-row">
            {page.layout === "lead" ? (
              <>
                <a href={phoneHref} className={buttonVariants({ size: "lg" })}>
                  <Icon name="phone" />
                  Let&apos;s Talk: {phone}
                </a>
                <Link to="/book-call" className={outline}>
                  Schedule an Intro Call
                </Link>
              </>
            ) : (
              <>
                <Link to="/book-call" className={buttonVariants({ size: "lg" })}>
                  Schedule an Intro Call
                </Link>
                <a href={phoneHref} className={outline}>
                  <Icon name="phone" />
                  Call {phone}
                </a>
              </>
            )}
          </div>
          <SlotPicture html={image} className="mt-12" />
        </div>
        <ul className="mt-12 grid gap-4 sm:grid-cols-3">
          {page.features.map((feature, i) => (
            <li key={feature.title} className={`${CARD} flex gap-4`}>
              <Icon name={FEATURE_ICONS[i]} className="size-6 shrink-0 text-primary" />
              <div>
                <h2 className="font-semibold">{feature.title}</h2>
                <p className={`mt-1 text-sm ${MUTED}`}>{feature.text}</p>
              </div>
            </li>
          ))}
        </ul>
      </div>
    </section>
  );
}

function Categories({
  id,
  title,
  intro,
  page,
}: {
  id: string;
  title: string;
  intro?: string;
  page: { categories: ServiceCategory[] };
}) {
  return (
    <Section id={id} title={title} intro={intro}>
      <ul className="grid gap-6 sm:grid-cols-2 lg:grid-cols-3">
        {page.categories.map((category) => (
          <li key={category.title} className={CARD}>
            <h3 className="text-lg font-semibold">{category.title}</h3>
            <ul className="mt-3 space-y-2 text-sm">
              {category.items.map((item) => (
                <li key={item} className="flex gap-2">
                  <Icon name="check" className="mt-0.5 size-4 shrink-0 text-primary" />
                  {item}
                </li>
              ))}
            </ul>
          </li>
        ))}
      </ul>
    </Section>
  );
}

function CardGrid({
  id,
  title,
  intro,
  cards,
  muted,
}: {
  id: string;
  title: string;
  intro?: string;
  cards: Card[];
  muted?: boolean;
}) {
  return (
    <Section id={id} title={title} intro={intro} muted={muted}>
      <ul
        className={`grid gap-6 sm:grid-cols-2 ${cards.length === 3 ? "lg:grid-cols-3" : "lg:grid-cols-4"}`}
      >
        {cards.map((card) => (
          <li key={card.title} className={CARD}>
            <h3 className="text-lg font-semibold">{card.title}</h3>
            <p className={`mt-2 text-sm ${MUTED}`}>{card.text}</p>
          </li>
        ))}
      </ul>
    </Section>
  );
}

function About({
  id,
  about,
  image,
}: {
  id: string;
  about: { heading: string; paragraphs: string[] };
  image: string;
}) {
  return (
    <Section id={id} title={about.heading} image={image}>
      <div className={`mx-auto max-w-3xl space-y-4 text-lg ${MUTED}`}>
        {about.paragraphs.map((paragraph) => (
          <p key={paragraph}>{paragraph}</p>
        ))}
      </div>
    </Section>
  );
}

function Areas({
  page,
  title,
  intro,
  muted,
}: {
  page: CityPage;
  title: string;
  intro?: string;
  muted?: boolean;
}) {
  return (
    <Section id="service-areas" title={title} intro={intro} muted={muted}>
      <ul className="mx-auto grid max-w-4xl grid-cols-2 gap-3 sm:grid-cols-4">
        {page.serviceAreas.map((area) => (
          <li
            key={area}
            className="flex items-center gap-2 rounded-lg border bg-background p-3 font-medium"
          >
            <Icon name="pin" className="size-4 shrink-0 text-primary" />
            {area}
          </li>
        ))}
      </ul>
    </Section>
  );
}

function Closing({ page }: { page: CityPage }) {
  const { phone, phoneHref } = useBusiness();
  return (
    <section aria-labelledby="closing-heading" className="bg-primary px-4 py-16">
      <div className="mx-auto max-w-3xl text-center text-primary-foreground">
        <h2 id="closing-heading" className="text-3xl font-bold">
          {page.closing.heading}
        </h2>
        <p className="mt-4 text-lg">{page.closing.text}</p>
        <div className="mt-8 flex flex-col items-center justify-center gap-3 sm:flex-row">
          <Link to="/book-call" className={buttonVariants({ size: "lg", variant: "secondary" })}>
            Schedule an Intro Call
          </Link>
          <a
            href={phoneHref}
            className={buttonVariants({
              size: "lg",
              variant: "outline",
              className: "border-primary-foreground bg-transparent text-primary-foreground",
            })}
          >
            <Icon name="phone" />
            Call {phone}
          </a>
        </div>
      </div>
    </section>
  );
}

const STEPS: { title: string; text: ReactNode }[] = [
  { title: "Explore", text: "Tell us about your home and what is on your to-do list." },
  { title: "Learn", text: "We walk you through the membership on a free consultation." },
  { title: "Sit back, Relax", text: "Your dedicated handyman takes it from there." },
];

function CityContact({ page, path }: { page: CityPage; path: string }) {
  return (
    <section id="contact" aria-labelledby="contact-heading" className="scroll-mt-16 px-4 py-20">
      <div className="mx-auto grid max-w-6xl gap-10 lg:grid-cols-2 lg:items-start">
        <div>
          <h2 id="contact-heading" className="text-3xl font-bold tracking-tight sm:text-4xl">
            Ready to Get Started?
          </h2>
          <p className="mt-4 text-lg font-semibold">{page.closing.heading}</p>
          <p className={`mt-2 text-lg ${MUTED}`}>{page.closing.text}</p>
          <ol className="mt-8 grid gap-4 sm:grid-cols-3 lg:grid-cols-1">
            {STEPS.map((step, i) => (
              <li key={step.title} className="flex gap-4">
                <span
                  aria-hidden="true"
                  className="flex size-10 shrink-0 items-center justify-center rounded-full bg-primary font-bold text-primary-foreground"
                >
                  {i + 1}
                </span>
                <div>
                  <h3 className="font-semibold">{step.title}</h3>
                  <p className={`text-sm ${MUTED}`}>{step.text}</p>
                </div>
              </li>
            ))}
          </ol>
        </div>
        <div className={CARD}>
          <h3 className="text-xl font-bold">Get Your Free Consultation</h3>
          <p className={`mt-1 mb-6 text-sm ${MUTED}`}>We reply within 24 hours, Mon-Fri 8AM-6PM.</p>
          <CityContactForm city={page.city} action={`/${path}#${LEAD_ANSWER_FRAGMENT}`} />
        </div>
      </div>
    </section>
  );
}
