import type { CityPath } from "./city-paths";

/*
 * The 11 city pages of docs/product.md section 2, as data: one route module (routes/city.tsx) renders
 * them all. Three layouts exist, as the spec describes them:
 *   - "signature" (Dunwoody, Buckhead): highlight cards, six categories of four items, four
 *     why-choose cards, About, eight service areas, closing call to action;
 *   - "neighborhood" (Brookhaven, Sandy Springs, Alpharetta): services, reasons, about the
 *     city, service areas, calls to action;
 *   - "lead" (Decatur, Marietta, Roswell, Norcross, Johns Creek, Milton): hero with three
 *     feature cards and a 'Let's Talk' call link, six sections, then the contact form.
 * Prices are never shown on city pages (docs/product.md section 9).
 */

export type Card = { title: string; text: string };
export type ServiceCategory = { title: string; items: [string, string, string, string] };

type CityBase = {
  /** The place name as it reads in copy ("Johns Creek"). */
  city: string;
  /** Browser title and meta description (and keywords where the spec asks for them). */
  title: string;
  description: string;
  keywords?: string;
  headline: string;
  intro: string;
  features: [Card, Card, Card];
  serviceAreas: string[];
  closing: { heading: string; text: string };
};

export type SignatureCity = CityBase & {
  layout: "signature";
  categories: ServiceCategory[];
  whyChoose: [Card, Card, Card, Card];
  about: { heading: string; paragraphs: string[] };
};

export type NeighborhoodCity = CityBase & {
  layout: "neighborhood";
  servicesIntro: string;
  categories: ServiceCategory[];
  reasons: Card[];
  about: { heading: string; paragraphs: string[] };
};

export type LeadCity = CityBase & {
  layout: "lead";
  servicesIntro: string;
  categories: ServiceCategory[];
  homes: { heading: string; intro: string; cards: [Card, Card, Card] };
  membershipIntro: string;
  reasons: [Card, Card, Card, Card];
  neighborhoodsIntro: string;
  seasons: { heading: string; items: [Card, Card, Card, Card] };
};

export type CityPage = SignatureCity | NeighborhoodCity | LeadCity;

/** The six categories of the Dunwoody page, shared by the pages the spec ties to it. */
const STANDARD_CATEGORIES: ServiceCategory[] = [
  {
    title: "Interior Repairs",
    items: [
      "Drywall patching and repair",
      "Interior painting and touch-ups",
      "Door and cabinet adjustments",
      "Trim and baseboard repair",
    ],
  },
  {
    title: "Plumbing Services",
    items: [
      "Leaky faucet repair",
      "Running toilet fixes and toilet replacement",
      "Clogged sink and tub drains",
      "Supply line and shut-off valve replacement",
    ],
  },
  {
    title: "Electrical Work",
    items: [
      "Light fixture installation",
      "Ceiling fan installation",
      "Outlet and switch replacement",
      "Smart thermostat and doorbell setup",
    ],
  },
  {
    title: "Exterior Maintenance",
    items: [
      "Gutter cleaning",
      "Deck and fence board repair",
      "Caulking and weatherstripping",
      "Pressure washing walkways and patios",
    ],
  },
  {
    title: "Carpentry Services",
    items: [
      "Custom shelving",
      "Stair and railing repair",
      "Crown molding and trim work",
      "Closet organizers",
    ],
  },
  {
    title: "Home Assembly",
    items: [
      "Furniture assembly",
      "TV mounting",
      "Playset and trampoline assembly",
      "Exercise equipment setup",
    ],
  },
];

const DUNWOODY: SignatureCity = {
  layout: "signature",
  city: "Dunwoody",
  title: "Dunwoody Handyman Services | Family-Friendly Home Repair & Maintenance",
  description:
    "A dedicated, family-friendly handyman for Dunwoody homes. Repairs, maintenance and upgrades for one flat monthly price. Licensed, insured, same-day and next-day service.",
  keywords:
    "Dunwoody handyman, handyman Dunwoody GA, home repair Dunwoody, home maintenance Dunwoody, Dunwoody Village handyman, family handyman Dunwoody",
  headline: "Dunwoody Handyman Services",
  intro:
    "From cul-de-sac colonials near Dunwoody Village to townhomes off Mount Vernon Road, your family's home deserves a handyman you already know. One dedicated, background-checked pro handles the repairs, upkeep and weekend projects, so your weekends go back to soccer games and Lemonade Days.",
  features: [
    {
      title: "Local",
      text: "Your handyman lives and works in north DeKalb, minutes from Perimeter and Georgetown.",
    },
    {
      title: "5-Star Service",
      text: "Dunwoody families rate every visit, and the same person comes back each time.",
    },
    {
      title: "Licensed & Insured",
      text: "Fully licensed and insured, with a money-back satisfaction guarantee.",
    },
  ],
  categories: STANDARD_CATEGORIES,
  whyChoose: [
    {
      title: "Family-Friendly",
      text: "Childproofing, anchored furniture and tidy work areas: we work around nap times, carpools and curious kids.",
    },
    {
      title: "Community Focused",
      text: "We know Dunwoody's HOAs, its 1970s ranches and its newer builds, and we plan work to match.",
    },
    {
      title: "Safety First",
      text: "Background-checked, trained handymen who wear shoe covers, clean up, and explain every fix.",
    },
    {
      title: "Honest Pricing",
      text: "One flat monthly price with no hourly billing. Parts over $100 always wait for your approval.",
    },
  ],
  about: {
    heading: "About Our Dunwoody Handyman Service",
    paragraphs: [
      "Dunwoody grew up as a family suburb, and many of its homes are now forty or fifty years old: original windows, aging decks, bathrooms that are ready for new fixtures. Busy parents rarely have a free Saturday to deal with all of it, and finding a reliable handyman for a short list of small jobs can take weeks.",
      "Our membership gives your household one dedicated handyman who learns your home, keeps a running to-do list with you in the app, and works through it on a schedule. Seasonal maintenance happens before it is urgent, the leaky faucet gets fixed on the next visit, and your family always knows who is coming to the door.",
    ],
  },
  serviceAreas: [
    "Dunwoody",
    "Sandy Springs",
    "Brookhaven",
    "Chamblee",
    "Doraville",
    "Norcross",
    "Tucker",
    "Peachtree Corners",
  ],
  closing: {
    heading: "Ready for a Handyman Your Family Can Count On?",
    text: "Book a free 15-minute intro call or call us now. We will set up a no-obligation walk-thru of your Dunwoody home.",
  },
};

const BUCKHEAD: SignatureCity = {
  layout: "signature",
  city: "Buckhead",
  title: "Buckhead Handyman Services | Premium Home & Condo Maintenance",
  description:
    "Premium handyman service for Buckhead homes, estates and high-rise condos. One dedicated, discreet handyman for repairs, maintenance and upgrades at a flat monthly price.",
  keywords:
    "Buckhead handyman, handyman Buckhead Atlanta, Buckhead condo maintenance, luxury home repair Buckhead, premium handyman Atlanta, Tuxedo Park handyman",
  headline: "Premium Handyman Services in Buckhead",
  intro:
    "For estates along West Paces Ferry, townhomes in Peachtree Heights and high-rise condos on Peachtree Road, quality is not optional. A dedicated, discreet handyman cares for your property with meticulous workmanship and white-glove scheduling, so your time stays yours.",
  features: [
    {
      title: "Local",
      text: "Based in Buckhead and familiar with its condo boards, building managers and estate homes.",
    },
    {
      title: "5-Star Service",
      text: "Punctual, discreet and meticulous, from the first walk-thru to the final clean-up.",
    },
    {
      title: "Licensed & Insured",
      text: "Fully licensed and insured, with certificates ready for your building's management.",
    },
  ],
  categories: [
    {
      title: "Premium Interior Work",
      items: [
        "Flawless drywall and plaster repair",
        "Designer paint finishes and touch-ups",
        "Custom hardware and cabinet upgrades",
        "Wallcovering repair",
      ],
    },
    {
      title: "Professional Plumbing",
      items: [
        "Luxury faucet and fixture installation",
        "Toilet and bidet seat installation",
        "Under-sink filtration systems",
        "Leak detection and repair",
      ],
    },
    {
      title: "Electrical Specialists",
      items: [
        "Chandelier installation",
        "Designer lighting and dimmers",
        "Smart home device setup",
        "Landscape lighting repair",
      ],
    },
    {
      title: "Property Maintenance",
      items: [
        "Seasonal estate maintenance plans",
        "Gutter and downspout care",
        "Condo move-in and move-out preparation",
        "Vacation home checks",
      ],
    },
    {
      title: "Fine Carpentry",
      items: [
        "Built-in shelving and millwork repair",
        "Crown molding and wainscoting",
        "Wine storage and closet systems",
        "Door and hardware refinishing",
      ],
    },
    {
      title: "Professional Assembly",
      items: [
        "Designer furniture assembly",
        "Art and mirror installation",
        "Home gym equipment setup",
        "Outdoor living furniture",
      ],
    },
  ],
  whyChoose: [
    {
      title: "Meticulous Craftsmanship",
      text: "Fine finishes deserve care: we protect floors and furnishings and leave every room as we found it.",
    },
    {
      title: "Discretion and Trust",
      text: "One background-checked handyman who respects your privacy, your schedule and your building's rules.",
    },
    {
      title: "Condo and Estate Expertise",
      text: "From concierge check-ins and freight elevators to multi-acre lots, we know how Buckhead properties run.",
    },
    {
      title: "Effortless Scheduling",
      text: "Book visits and add tasks in the app; we coordinate access and send a summary after every visit.",
    },
  ],
  about: {
    heading: "About Our Buckhead Handyman Service",
    paragraphs: [
      "Buckhead homes and condos are investments, and they are often owned by people with little time to spare: executives, frequent travelers, families juggling busy calendars. Finding a trustworthy handyman for a list of small but exacting jobs should not take an afternoon of calls.",
      "With our membership, one dedicated handyman gets to know your property and your standards. Routine maintenance happens quietly in the background, projects are documented with notes after every visit, and anything that needs a specialist is referred to a trusted partner. You get premium care at a flat monthly price, without hourly invoices.",
    ],
  },
  serviceAreas: [
    "Buckhead Village",
    "Tuxedo Park",
    "Peachtree Heights",
    "Garden Hills",
    "Haynes Manor",
    "Chastain Park",
    "Brookhaven",
    "Sandy Springs",
  ],
  closing: {
    heading: "Experience Premium Home Care in Buckhead",
    text: "Schedule a 15-minute intro call or call us directly to arrange a private walk-thru of your home or condo.",
  },
};

const BROOKHAVEN: NeighborhoodCity = {
  layout: "neighborhood",
  city: "Brookhaven",
  title: "Brookhaven Handyman Services | Repairs & Maintenance for Brookhaven Homes",
  description:
    "A dedicated handyman for Brookhaven homes, from Historic Brookhaven to Ashford Park. Flat monthly membership for repairs, upkeep and upgrades. Licensed and insured.",
  headline: "Brookhaven Handyman Services",
  intro:
    "Brookhaven blends classic brick homes in Ashford Park, renovated ranches near Murphey Candler Park and brand-new townhomes off Dresden Drive. Whatever your home's age, one dedicated handyman keeps it in shape on a simple monthly plan.",
  features: [
    {
      title: "Old and New Homes",
      text: "Comfortable with 1940s cottages and 2020s builds alike.",
    },
    {
      title: "Same-Day and Next-Day Service",
      text: "Urgent fixes do not wait for the next opening.",
    },
    {
      title: "Licensed & Insured",
      text: "Protected work, backed by our satisfaction guarantee.",
    },
  ],
  servicesIntro:
    "Everything a Brookhaven home needs between renovations, handled by the same trusted handyman.",
  categories: STANDARD_CATEGORIES,
  reasons: [
    {
      title: "One Handyman, Every Time",
      text: "The person who fixed your porch railing already knows where your shut-off valves are.",
    },
    {
      title: "Built for Busy Professionals",
      text: "Book visits and add tasks from your phone between meetings and MARTA rides.",
    },
    {
      title: "Proactive, Not Reactive",
      text: "A maintenance plan that catches wood rot and clogged gutters before they turn into repairs.",
    },
    {
      title: "Transparent Pricing",
      text: "A flat monthly membership, never an hourly meter running in your living room.",
    },
  ],
  about: {
    heading: "Caring for Homes Across Brookhaven",
    paragraphs: [
      "Brookhaven became a city in 2012, but many of its neighborhoods are decades older. Mature oaks drop leaves into gutters every fall, original hardwood and plaster need a careful hand, and new construction brings its own list of settling cracks and sticky doors.",
      "Our members in Brookhaven use their hours for exactly that mix: a seasonal gutter cleaning, a new vanity light, a patched wall before the in-laws visit. The same handyman returns each time and keeps notes on your home in the app.",
    ],
  },
  serviceAreas: [
    "Buckhead",
    "Sandy Springs",
    "Dunwoody",
    "Chamblee",
    "Doraville",
    "Tucker",
    "North Druid Hills",
  ],
  closing: {
    heading: "Let's Take Care of Your Brookhaven Home",
    text: "Schedule a free 15-minute intro call, or call now to book your no-obligation walk-thru.",
  },
};

const SANDY_SPRINGS: NeighborhoodCity = {
  layout: "neighborhood",
  city: "Sandy Springs",
  title: "Sandy Springs Handyman Services | Home Maintenance Membership",
  description:
    "Handyman membership for Sandy Springs homes and townhomes near the Chattahoochee. One dedicated pro for repairs, maintenance and upgrades, flat monthly price.",
  headline: "Sandy Springs Handyman Services",
  intro:
    "From wooded lots near the Chattahoochee to townhomes by City Springs, Sandy Springs homes ask a lot of their owners. Hand the to-do list to a dedicated handyman who shows up on schedule and knows your house.",
  features: [
    {
      title: "Riverside Know-How",
      text: "Humidity, tree cover and sloped lots are part of every plan.",
    },
    {
      title: "Same-Day and Next-Day Service",
      text: "Quick help when something cannot wait.",
    },
    {
      title: "Licensed & Insured",
      text: "Covered, careful work with a money-back guarantee.",
    },
  ],
  servicesIntro:
    "The full list of repairs, upkeep and upgrades our Sandy Springs members book most often.",
  categories: STANDARD_CATEGORIES,
  reasons: [
    {
      title: "Built Around Your Commute",
      text: "Visits scheduled around GA-400 traffic and your workday, with reminders in the app.",
    },
    {
      title: "Ready for Heavy Tree Cover",
      text: "Gutters, roof lines and decks under big trees get checked every season.",
    },
    {
      title: "Condo and Townhome Friendly",
      text: "We work with HOA rules and management companies, and keep shared spaces clean.",
    },
    {
      title: "A Plan, Not a Scramble",
      text: "More than 10 maintenance tasks planned in your first 60 days, so nothing is forgotten.",
    },
  ],
  about: {
    heading: "Home Care for Sandy Springs Living",
    paragraphs: [
      "Sandy Springs stretches from the banks of the Chattahoochee to the Perimeter, with everything from mid-century ranches on big wooded lots to new condos near City Springs. Shade and humidity are lovely in July and hard on wood trim, decks and gutters the rest of the year.",
      "A membership turns that upkeep into a routine. Your dedicated handyman handles the seasonal work, the small repairs and the upgrades you have been meaning to get to, and tracks every task in the app so you can see what has been done.",
    ],
  },
  serviceAreas: [
    "Dunwoody",
    "Brookhaven",
    "Buckhead",
    "Roswell",
    "Alpharetta",
    "Johns Creek",
    "Marietta",
  ],
  closing: {
    heading: "Get Your Sandy Springs Home Off Your Mind",
    text: "Book a free 15-minute intro call, or call us to schedule a walk-thru at a time that suits you.",
  },
};

const ALPHARETTA: NeighborhoodCity = {
  layout: "neighborhood",
  city: "Alpharetta",
  title: "Alpharetta Handyman Services | Flat-Rate Home Maintenance",
  description:
    "A dedicated handyman for Alpharetta families and professionals. Flat-rate monthly membership for repairs, upgrades and upkeep. Licensed, insured, satisfaction guaranteed.",
  headline: "Alpharetta Handyman Services",
  intro:
    "Alpharetta's subdivisions, swim-and-tennis communities and homes near Avalon were built for busy lives. Keep yours running smoothly with one dedicated handyman and a flat monthly price that covers the repairs, upgrades and seasonal upkeep.",
  features: [
    {
      title: "Tech-Friendly",
      text: "Book, track and review every visit from the app.",
    },
    {
      title: "Same-Day and Next-Day Service",
      text: "Fast help for the jobs that cannot wait.",
    },
    {
      title: "Licensed & Insured",
      text: "Reliable work backed by our satisfaction guarantee.",
    },
  ],
  servicesIntro:
    "Our Alpharetta members use their visits for everything from smart-home installs to drywall repair.",
  categories: STANDARD_CATEGORIES,
  reasons: [
    {
      title: "Made for Busy Schedules",
      text: "Add a task the moment you notice it and book a visit in a few taps.",
    },
    {
      title: "Smart Home Ready",
      text: "Thermostats, video doorbells, locks and lighting set up and working together.",
    },
    {
      title: "HOA-Aware",
      text: "We keep exteriors, mailboxes and fences in line with neighborhood standards.",
    },
    {
      title: "One Trusted Face",
      text: "The same vetted handyman every visit, who already knows your home's history.",
    },
  ],
  about: {
    heading: "Serving Alpharetta's Growing Neighborhoods",
    paragraphs: [
      "Alpharetta has grown fast, and many homes from the 1990s and 2000s building boom are reaching the age where water heaters, decks, fixtures and caulk all need attention at once. Add long work weeks and kids' activities, and the to-do list keeps growing.",
      "Our membership gives Alpharetta homeowners a dedicated handyman and a proactive plan. We document your appliances, schedule the seasonal work, and take on the repairs and upgrades on your list, with everything tracked in the app.",
    ],
  },
  serviceAreas: [
    "Johns Creek",
    "Milton",
    "Roswell",
    "Cumming",
    "Duluth",
    "Suwanee",
    "Sandy Springs",
  ],
  closing: {
    heading: "Make Home Maintenance Effortless in Alpharetta",
    text: "Schedule a free 15-minute intro call or call us now to plan your no-obligation walk-thru.",
  },
};

const DECATUR: LeadCity = {
  layout: "lead",
  city: "Decatur",
  title: "Decatur Handyman Services | Care for Historic Homes & Bungalows",
  description:
    "A dedicated handyman for Decatur's historic homes and craftsman bungalows. Careful repairs, maintenance and upgrades on a flat monthly membership.",
  headline: "Handyman Services for Decatur's Historic Homes",
  intro:
    "Craftsman bungalows in Oakhurst, Victorian cottages in the MAK Historic District, 1920s brick homes in Winnona Park: Decatur's homes have character, and character takes care. Our handymen respect original details while keeping everything working.",
  features: [
    {
      title: "Historic Home Know-How",
      text: "Plaster walls, old-growth trim and original windows handled with care.",
    },
    {
      title: "Same-Day and Next-Day Service",
      text: "Quick help when an old house surprises you.",
    },
    {
      title: "Licensed & Insured",
      text: "Careful work, backed by our satisfaction guarantee.",
    },
  ],
  servicesIntro:
    "Repairs, upkeep and thoughtful upgrades that respect the way your Decatur home was built.",
  categories: STANDARD_CATEGORIES,
  homes: {
    heading: "Built for Decatur's Homes",
    intro: "Every era of Decatur housing brings its own maintenance list.",
    cards: [
      {
        title: "Craftsman Bungalows",
        text: "Deep porches, tapered columns and exposed rafters that need rot checks and fresh paint.",
      },
      {
        title: "Victorian Cottages",
        text: "Plaster walls, transoms and pocket doors repaired without losing their original charm.",
      },
      {
        title: "Mid-Century Ranches",
        text: "Dated fixtures and tired bathrooms refreshed with modern, efficient upgrades.",
      },
    ],
  },
  membershipIntro:
    "A Decatur membership starts with a free walk-thru, where we note the quirks of your older home.",
  reasons: [
    {
      title: "Preservation First",
      text: "We repair before we replace, and match materials to your home's period.",
    },
    {
      title: "Walkable-City Scheduling",
      text: "Visits planned around street parking and tight historic-district lots.",
    },
    {
      title: "Patience for Old Houses",
      text: "Out-of-square doors and century-old plumbing are part of the job, not a surprise fee.",
    },
    {
      title: "Specialists When Needed",
      text: "For new circuits or water lines, we refer trusted partners who know historic homes.",
    },
  ],
  neighborhoodsIntro: "We care for homes across the city and its neighbors.",
  serviceAreas: [
    "Oakhurst",
    "Winnona Park",
    "MAK Historic District",
    "Great Lakes",
    "Glenwood Estates",
    "Clairemont",
    "Avondale Estates",
    "East Lake",
  ],
  seasons: {
    heading: "A Year of Care for Your Decatur Home",
    items: [
      {
        title: "Spring",
        text: "Porch and column inspections, window glazing checks and a fresh coat of trim paint.",
      },
      {
        title: "Summer",
        text: "Re-caulk old window frames and check attic ventilation before the heat peaks.",
      },
      {
        title: "Fall",
        text: "Clear gutters under the old oaks and weatherstrip original doors before the chill.",
      },
      {
        title: "Winter",
        text: "Insulate exposed pipes in crawl spaces and fix drafty sashes and sticking doors.",
      },
    ],
  },
  closing: {
    heading: "Give Your Decatur Home the Care It Deserves",
    text: "Tell us about your home below, or call us to arrange a free walk-thru.",
  },
};

const MARIETTA: LeadCity = {
  layout: "lead",
  city: "Marietta",
  title: "Marietta Handyman Services | Cobb County Home Maintenance",
  description:
    "A dedicated handyman for Marietta and Cobb County homes: historic houses near the Square, East Cobb family homes and townhomes. Flat monthly membership.",
  headline: "Marietta Handyman Services Across Cobb County",
  intro:
    "Marietta has a bit of everything: Victorian homes near the Square, classic East Cobb two-stories, newer townhomes and sprawling ranches. Whatever you live in, a dedicated handyman keeps it maintained on one flat monthly plan.",
  features: [
    {
      title: "Every Kind of Home",
      text: "Historic, suburban, townhome or ranch: we know them all.",
    },
    {
      title: "Same-Day and Next-Day Service",
      text: "Prompt help across Cobb County.",
    },
    {
      title: "Licensed & Insured",
      text: "Dependable work with a satisfaction guarantee.",
    },
  ],
  servicesIntro: "The repairs and upkeep Cobb County homes need most, all in one membership.",
  categories: STANDARD_CATEGORIES,
  homes: {
    heading: "Built for Marietta's Diverse Housing",
    intro: "Marietta's neighborhoods span more than a century of building styles.",
    cards: [
      {
        title: "Historic District Homes",
        text: "Homes near Whitlock Avenue and the Square with heart-pine floors and tall windows.",
      },
      {
        title: "East Cobb Family Homes",
        text: "1980s and 1990s two-stories due for new fixtures, deck repairs and fresh paint.",
      },
      {
        title: "Townhomes and Newer Builds",
        text: "Settling cracks, builder-grade fixtures and HOA-friendly exterior upkeep.",
      },
    ],
  },
  membershipIntro:
    "Membership works the same from the Square to East Cobb: a free walk-thru, then a plan for your home.",
  reasons: [
    {
      title: "Cobb County Coverage",
      text: "From Kennesaw Mountain to the Chattahoochee, we schedule visits efficiently.",
    },
    {
      title: "One Plan for Any Home",
      text: "Your maintenance plan is built around your house, not a generic checklist.",
    },
    {
      title: "Family Schedules Welcome",
      text: "Visits timed around school pickup, practice and work-from-home calls.",
    },
    {
      title: "No Hourly Surprises",
      text: "A flat monthly price and approval for any part over $100.",
    },
  ],
  neighborhoodsIntro: "We serve Marietta and the Cobb County communities around it.",
  serviceAreas: [
    "Marietta Square",
    "Whitlock Avenue",
    "Fair Oaks",
    "East Cobb",
    "West Cobb",
    "Kennesaw",
    "Smyrna",
    "Vinings",
  ],
  seasons: {
    heading: "A Year of Care for Your Marietta Home",
    items: [
      {
        title: "Spring",
        text: "Pollen season gutter flush, deck inspection and exterior caulk touch-ups.",
      },
      {
        title: "Summer",
        text: "Ceiling fans, HVAC filters and sealing gaps that let the humidity in.",
      },
      {
        title: "Fall",
        text: "Gutter cleaning, door sweeps and a check of outdoor faucets before the first freeze.",
      },
      {
        title: "Winter",
        text: "Indoor projects: drywall repair, fresh paint, new fixtures and storage upgrades.",
      },
    ],
  },
  closing: {
    heading: "Let's Look After Your Marietta Home",
    text: "Send us a note below or call us to set up your free walk-thru.",
  },
};

const ROSWELL: LeadCity = {
  layout: "lead",
  city: "Roswell",
  title: "Roswell Handyman Services | Historic & Riverside Home Care",
  description:
    "A dedicated handyman for Roswell's historic district and riverside homes. Repairs, maintenance and upgrades on a flat monthly membership. Licensed and insured.",
  headline: "Roswell Handyman Services, From Canton Street to the River",
  intro:
    "Roswell pairs antebellum history with life along the Chattahoochee. Whether your home sits near Canton Street or backs onto the river and its creeks, a dedicated handyman keeps it maintained with care for its history and its setting.",
  features: [
    {
      title: "Historic and Riverside",
      text: "Old homes and damp, wooded lots are our specialty.",
    },
    {
      title: "Same-Day and Next-Day Service",
      text: "Fast help when storms or leaks strike.",
    },
    {
      title: "Licensed & Insured",
      text: "Trusted work with our satisfaction guarantee.",
    },
  ],
  servicesIntro: "Everyday repairs and seasonal upkeep for Roswell homes, old and new.",
  categories: STANDARD_CATEGORIES,
  homes: {
    heading: "Built for Roswell's Homes",
    intro: "History and the river shape how Roswell homes age.",
    cards: [
      {
        title: "Historic District Homes",
        text: "Older framing, original trim and porches near the Mill that deserve a careful hand.",
      },
      {
        title: "Riverside Properties",
        text: "Moisture, mildew and decks that face the weather along the Chattahoochee.",
      },
      {
        title: "Swim-and-Tennis Neighborhoods",
        text: "1980s and 1990s family homes ready for updated fixtures and repairs.",
      },
    ],
  },
  membershipIntro:
    "Your Roswell membership begins with a walk-thru where we look at the river-facing and historic details first.",
  reasons: [
    {
      title: "Moisture-Smart Maintenance",
      text: "We watch for the rot, mildew and drainage problems that riverside lots invite.",
    },
    {
      title: "Respect for History",
      text: "Repairs that suit the character of homes near Roswell's historic district.",
    },
    {
      title: "Outdoor Living Care",
      text: "Decks, railings and screened porches kept safe for evenings outside.",
    },
    {
      title: "Always the Same Pro",
      text: "One dedicated handyman who learns your home's history and its quirks.",
    },
  ],
  neighborhoodsIntro: "We serve historic Roswell, the riverside and the neighborhoods nearby.",
  serviceAreas: [
    "Historic Roswell",
    "Canton Street",
    "Roswell Mill",
    "Martin's Landing",
    "Horseshoe Bend",
    "Willeo",
    "East Roswell",
    "Mountain Park",
  ],
  seasons: {
    heading: "A Year of Care for Your Roswell Home",
    items: [
      {
        title: "Spring",
        text: "Deck and dock-side railing checks, and mildew treatment after the wet months.",
      },
      {
        title: "Summer",
        text: "Screen repairs for porches and a moisture check in basements and crawl spaces.",
      },
      {
        title: "Fall",
        text: "Gutters and downspouts cleared so heavy rain drains away from the foundation.",
      },
      {
        title: "Winter",
        text: "Pipe protection, weatherstripping and interior repairs while the yard rests.",
      },
    ],
  },
  closing: {
    heading: "Keep Your Roswell Home Ready for Every Season",
    text: "Use the form below or call us to book a free walk-thru.",
  },
};

const NORCROSS: LeadCity = {
  layout: "lead",
  city: "Norcross",
  title: "Norcross Handyman Services | Gwinnett County Home Repairs",
  description:
    "A dedicated handyman for Norcross and Gwinnett County homes. One flat monthly membership covers repairs, maintenance and upgrades. Licensed and insured.",
  headline: "Norcross Handyman Services for Gwinnett County",
  intro:
    "From the historic cottages around Thrasher Park to family homes in Peachtree Corners and Berkeley Lake, Norcross is the gateway to Gwinnett County. A dedicated handyman keeps your home in great shape for one flat monthly price.",
  features: [
    {
      title: "Gwinnett County Local",
      text: "Serving Norcross and the neighboring Gwinnett cities.",
    },
    {
      title: "Same-Day and Next-Day Service",
      text: "Quick response for urgent repairs.",
    },
    {
      title: "Licensed & Insured",
      text: "Dependable work with a satisfaction guarantee.",
    },
  ],
  servicesIntro: "Complete handyman coverage for Norcross homes, on one membership.",
  categories: STANDARD_CATEGORIES,
  homes: {
    heading: "Built for Norcross Homes",
    intro: "Norcross mixes small-town history with Gwinnett growth.",
    cards: [
      {
        title: "Historic Downtown Cottages",
        text: "Century-old homes near the depot that need careful, period-friendly repairs.",
      },
      {
        title: "Established Subdivisions",
        text: "1970s to 1990s homes ready for new fixtures, decks and bathroom refreshes.",
      },
      {
        title: "Lakeside and Newer Homes",
        text: "Berkeley Lake and newer builds with outdoor spaces and smart-home upgrades.",
      },
    ],
  },
  membershipIntro:
    "Gwinnett homeowners start with a free walk-thru, then a plan built around their home.",
  reasons: [
    {
      title: "Close By",
      text: "Quick trips across Norcross, Peachtree Corners and Duluth mean more time working.",
    },
    {
      title: "Built for Families",
      text: "Safe, tidy work and flexible visits around school and work schedules.",
    },
    {
      title: "Clear Communication",
      text: "Every task tracked in the app, with notes after each visit.",
    },
    {
      title: "Honest, Flat Pricing",
      text: "One monthly membership, a $10 shopping fee only when a visit needs parts.",
    },
  ],
  neighborhoodsIntro: "We serve Norcross and the Gwinnett County communities around it.",
  serviceAreas: [
    "Historic Downtown Norcross",
    "Peachtree Corners",
    "Berkeley Lake",
    "Duluth",
    "Lilburn",
    "Tucker",
    "Lawrenceville",
    "Suwanee",
  ],
  seasons: {
    heading: "A Year of Care for Your Norcross Home",
    items: [
      {
        title: "Spring",
        text: "Exterior touch-ups, fence repairs and a full check of doors and windows.",
      },
      {
        title: "Summer",
        text: "Ceiling fans and HVAC filters for the heat, and deck boards re-secured.",
      },
      {
        title: "Fall",
        text: "Gutter cleaning and sealing drafts before the cooler months.",
      },
      {
        title: "Winter",
        text: "Indoor upgrades: shelving, lighting, paint and the projects saved for a cold day.",
      },
    ],
  },
  closing: {
    heading: "Let's Get Your Norcross To-Do List Done",
    text: "Send us your details below, or call us to book a free walk-thru.",
  },
};

const JOHNS_CREEK: LeadCity = {
  layout: "lead",
  city: "Johns Creek",
  title: "Johns Creek Handyman Services | Luxury Family Home Maintenance",
  description:
    "A dedicated handyman for Johns Creek's luxury family homes. Proactive maintenance, repairs and upgrades on one flat monthly membership. Licensed and insured.",
  headline: "Handyman Services for Johns Creek Family Homes",
  intro:
    "Johns Creek is known for spacious family homes, top-rated schools and golf-course communities. Keep your home as polished as the neighborhood with a dedicated handyman who handles the upkeep, repairs and upgrades for one flat monthly price.",
  features: [
    {
      title: "Luxury Home Care",
      text: "Large homes, fine finishes and big to-do lists welcome.",
    },
    {
      title: "Same-Day and Next-Day Service",
      text: "Quick help for busy households.",
    },
    {
      title: "Licensed & Insured",
      text: "Trusted work with our satisfaction guarantee.",
    },
  ],
  servicesIntro:
    "Everything a large family home needs, from basement shelving to chandelier installs.",
  categories: STANDARD_CATEGORIES,
  homes: {
    heading: "Built for Johns Creek's Luxury Homes",
    intro: "Bigger homes mean longer lists, and more to protect.",
    cards: [
      {
        title: "Golf-Course Communities",
        text: "Homes in St. Ives and the Country Club of the South held to a high standard.",
      },
      {
        title: "Spacious Family Homes",
        text: "Finished basements, bonus rooms and multiple bathrooms to keep in shape.",
      },
      {
        title: "Outdoor Living Spaces",
        text: "Decks, pergolas and outdoor kitchens maintained for entertaining.",
      },
    ],
  },
  membershipIntro:
    "Membership starts with a free walk-thru of your whole home, basement to bonus room.",
  reasons: [
    {
      title: "Proactive Protection",
      text: "Seasonal maintenance that protects a significant investment.",
    },
    {
      title: "Family-First Scheduling",
      text: "Visits that fit around school, sports and travel.",
    },
    {
      title: "Fine Finishes",
      text: "Careful work on upgraded fixtures, cabinetry and trim.",
    },
    {
      title: "Room to Grow",
      text: "Plans with enough hours for the projects a large home always has waiting.",
    },
  ],
  neighborhoodsIntro: "We serve Johns Creek and the North Fulton communities nearby.",
  serviceAreas: [
    "St. Ives",
    "Country Club of the South",
    "Medlock Bridge",
    "Abbotts Bridge",
    "Shakerag",
    "Seven Oaks",
    "Duluth",
    "Suwanee",
  ],
  seasons: {
    heading: "A Year of Care for Your Johns Creek Home",
    items: [
      {
        title: "Spring",
        text: "Deck and pergola inspections, outdoor lighting and a fresh exterior touch-up.",
      },
      {
        title: "Summer",
        text: "Air filters, ceiling fans and patio furniture assembly for the outdoor season.",
      },
      {
        title: "Fall",
        text: "Gutter cleaning and weatherstripping across every door and window.",
      },
      {
        title: "Winter",
        text: "Basement and bonus-room projects: shelving, lighting, paint and organizers.",
      },
    ],
  },
  closing: {
    heading: "Keep Your Johns Creek Home at Its Best",
    text: "Share a few details below, or call us to schedule your free walk-thru.",
  },
};

const MILTON: LeadCity = {
  layout: "lead",
  city: "Milton",
  title: "Milton Handyman Services | Care for Estates, Farms & Equestrian Properties",
  description:
    "A dedicated handyman for Milton's large rural estates and equestrian properties. Barns, fences, outbuildings and homes maintained on a flat monthly membership.",
  headline: "Handyman Services for Milton's Estates and Farms",
  intro:
    "Milton's rolling pastures, horse farms and estate homes on multi-acre lots need more than the occasional repair. A dedicated handyman keeps the house, the barn and the fence lines in shape, on one flat monthly plan.",
  features: [
    {
      title: "Estate and Equestrian",
      text: "Homes, barns, stalls and fencing all on one plan.",
    },
    {
      title: "Same-Day and Next-Day Service",
      text: "Prompt help, even out on the back roads.",
    },
    {
      title: "Licensed & Insured",
      text: "Protected work with our satisfaction guarantee.",
    },
  ],
  servicesIntro:
    "Home repairs and the extra work that comes with acreage, handled by one trusted handyman.",
  categories: STANDARD_CATEGORIES,
  homes: {
    heading: "Built for Milton's Rural Luxury",
    intro: "Large properties bring more buildings, more fencing and more to maintain.",
    cards: [
      {
        title: "Estate Homes",
        text: "Expansive homes with custom millwork, large decks and outdoor living spaces.",
      },
      {
        title: "Barns and Stables",
        text: "Stall doors, hinges, latches and tack rooms kept safe and working.",
      },
      {
        title: "Fencing and Outbuildings",
        text: "Board fences, gates, sheds and workshops repaired before they become hazards.",
      },
    ],
  },
  membershipIntro:
    "A Milton membership starts with a walk-thru of the whole property, outbuildings included.",
  reasons: [
    {
      title: "Acreage Experience",
      text: "We plan visits so long driveways and big lots do not eat into your hours.",
    },
    {
      title: "Safe for Horses",
      text: "Fence boards, gates and stall hardware repaired with animal safety in mind.",
    },
    {
      title: "Estate-Level Care",
      text: "Fine finishes inside the house get the same care as the barn.",
    },
    {
      title: "Seasonal Planning",
      text: "A proactive plan that keeps pace with Milton's seasons and storms.",
    },
  ],
  neighborhoodsIntro: "We serve Milton's estates and the North Fulton and Forsyth areas nearby.",
  serviceAreas: [
    "Crabapple",
    "Birmingham",
    "Hopewell",
    "Arnold Mill",
    "Deerfield",
    "Alpharetta",
    "Roswell",
    "Cumming",
  ],
  seasons: {
    heading: "A Year of Care for Your Milton Property",
    items: [
      {
        title: "Spring",
        text: "Walk the fence lines, replace broken boards and service gate hardware.",
      },
      {
        title: "Summer",
        text: "Barn fans, stall doors and shaded outdoor spaces kept in working order.",
      },
      {
        title: "Fall",
        text: "Gutters on the house and outbuildings cleared, and doors sealed for winter.",
      },
      {
        title: "Winter",
        text: "Frost-proof spigots, pipe insulation in barns and indoor repair projects.",
      },
    ],
  },
  closing: {
    heading: "Let's Care for Your Milton Property",
    text: "Tell us about your property below, or call us to plan a free walk-thru.",
  },
};

/** The city pages' picture slots (app/content/images/slots.json, ADR 028): the hero and About. */
export const CITY_IMAGES = { hero: "city-hero", about: "city-about" } as const;

export const CITY_PAGES: Record<CityPath, CityPage> = {
  "brookhaven-handyman": BROOKHAVEN,
  "sandy-springs-handyman": SANDY_SPRINGS,
  "alpharetta-handyman": ALPHARETTA,
  "dunwoody-handyman": DUNWOODY,
  "buckhead-handyman": BUCKHEAD,
  "decatur-handyman": DECATUR,
  "marietta-handyman": MARIETTA,
  "roswell-handyman": ROSWELL,
  "norcross-handyman": NORCROSS,
  "johns-creek-handyman": JOHNS_CREEK,
  "milton-handyman": MILTON,
};
