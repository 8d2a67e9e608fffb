import { renderToString } from "react-dom/server";
import { createRoutesStub } from "react-router";
import { describe, expect, it } from "vitest";
import { MemberPayments } from "./member-payments";

describe("the membership offer (issue 39, item 11)", () => {
  it("says the plan's exact hours: 17 h 30 min, not 17 h", () => {
    const Stub = createRoutesStub([
      {
        path: "/dashboard",
        Component: () => (
          <MemberPayments
            message={null}
            view={{
              takesCards: false,
              cardOnFile: false,
              pastDueSince: null,
              bookingWaitsFrom: null,
              pastDueByHand: null,
              renewal: null,
              formKey: "key-0000000000000001",
              offer: {
                id: "o1",
                planName: "Essential",
                billing: "monthly",
                startDate: "2026-12-01",
                priceCents: 17_500,
                minutesPerYear: 1_050,
                visitsPerYear: 12,
              },
            }}
          />
        ),
      },
    ]);
    const html = renderToString(<Stub initialEntries={["/dashboard"]} />).replace(/<!-- -->/g, "");
    expect(html).toContain("17 h 30 min of handyman time and 12 visits a year.");
  });
});
