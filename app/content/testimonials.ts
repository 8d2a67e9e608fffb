/** A sample testimonial (docs/product.md section 3): name, location, text and a 1-5 rating. */
export type Testimonial = {
  name: string;
  location: string;
  text: string;
  rating: 1 | 2 | 3 | 4 | 5;
};

export const TESTIMONIALS: Testimonial[] = [
  {
    name: "Jennifer M.",
    location: "Dunwoody",
    text: "Our list used to live on the fridge for months. Now our handyman comes every other week, works through it, and even noticed a slow leak under the kitchen sink before it ruined the cabinet.",
    rating: 5,
  },
  {
    name: "Marcus T.",
    location: "Decatur",
    text: "Our 1920s bungalow always needs something. Having the same person who knows its quirks, with a flat monthly price and no surprise invoices, has taken a real weight off.",
    rating: 5,
  },
  {
    name: "Priya S.",
    location: "Alpharetta",
    text: "Booking in the app takes a minute. Light fixtures, a TV mount, gutters before the storms: all done, all documented, and I never had to chase anyone for a quote.",
    rating: 5,
  },
];
