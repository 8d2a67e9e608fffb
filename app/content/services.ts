/** A group of services on the home page (docs/product.md section 3, "Services group"). */
export type ServiceGroup = {
  category: "Maintenance" | "Repairs" | "Upgrades";
  summary: string;
  services: { title: string; description: string }[];
};

export const SERVICE_GROUPS: ServiceGroup[] = [
  {
    category: "Maintenance",
    summary: "The upkeep that keeps small problems from becoming expensive ones.",
    services: [
      {
        title: "Gutter Cleaning",
        description:
          "Leaves and debris cleared each spring and fall so rain runs away from your roof and foundation.",
      },
      {
        title: "Seasonal Check-Ups",
        description:
          "HVAC filters, smoke and CO detector batteries, caulk and weatherstripping, on a schedule built for your home.",
      },
      {
        title: "Appliance Care",
        description:
          "Dryer vents, refrigerator coils and dishwasher filters cleaned, and every appliance documented in your plan.",
      },
      {
        title: "Exterior Upkeep",
        description:
          "Loose deck boards re-secured, fence pickets replaced and trim touched up before the weather gets to it.",
      },
    ],
  },
  {
    category: "Repairs",
    summary: "The fixes on your list, done properly the first time.",
    services: [
      {
        title: "Drywall Repair",
        description:
          "Holes, cracks and water-stained patches repaired and blended so the wall looks like nothing happened.",
      },
      {
        title: "Patch and Paint",
        description:
          "Touch-ups, scuffed walls, trim and doors repainted with clean lines and a tidy finish.",
      },
      {
        title: "Minor Plumbing",
        description:
          "Dripping faucets, running toilets, slow drains and worn supply lines fixed without the wait.",
      },
      {
        title: "Minor Electrical",
        description:
          "Outlets, switches and dimmers replaced, and dead fixtures brought back on your existing wiring.",
      },
      {
        title: "Carpentry",
        description:
          "Sticking doors, loose trim, squeaky stairs and worn cabinet hinges repaired and adjusted.",
      },
    ],
  },
  {
    category: "Upgrades",
    summary: "The projects that make your home work better for you.",
    services: [
      {
        title: "Installation",
        description:
          "Smart thermostats, video doorbells, shelving, blinds, curtain rods and TV mounts installed and level.",
      },
      {
        title: "Assembly",
        description:
          "Furniture, playsets, grills and fitness equipment assembled correctly and anchored where they should be.",
      },
      {
        title: "Light Fixtures",
        description:
          "Pendants, vanity lights and ceiling fans swapped in to brighten a room in an afternoon.",
      },
      {
        title: "Artwork Hanging",
        description:
          "Gallery walls, mirrors and heavy art hung level and secured with the right anchors.",
      },
      {
        title: "Toilet Replacement",
        description:
          "Old or cracked toilets removed and a new one set, sealed and tested, with the old one hauled away.",
      },
    ],
  },
];

/** What a membership does not cover (docs/product.md section 1). */
export const NOT_COVERED = ["ongoing pool care", "ongoing landscaping", "house cleaning"];
