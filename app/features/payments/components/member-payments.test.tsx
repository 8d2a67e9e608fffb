import { renderToString } from "react-dom/server";
import { createRoutesStub } from "react-router";
import { describe, expect, it } from "vitest";
import { CALL_ASKED_MESSAGE, MemberPayments } from "./member-payments";

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
                callAsked: false,
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

describe("'Start membership' once the office is to call (the rough edges, item 7)", () => {
  const render = (callAsked: boolean, message: string | null) => {
    const Stub = createRoutesStub([
      {
        path: "/dashboard",
        Component: () => (
          <MemberPayments
            message={message}
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
                callAsked,
              },
            }}
          />
        ),
      },
    ]);
    return renderToString(<Stub initialEntries={["/dashboard"]} />).replace(/<!-- -->/g, "");
  };

  it("offers the button until the member chose it", () => {
    const html = render(false, null);
    expect(html).toContain("Start membership</button>");
    expect(html).not.toContain(CALL_ASKED_MESSAGE);
    expect(html).toContain("from December 1, 2026.");
  });

  it("hides it when the answer says the office will call, and says so once", () => {
    const html = render(false, CALL_ASKED_MESSAGE);
    expect(html).not.toContain("Start membership</button>");
    expect(html.split(CALL_ASKED_MESSAGE)).toHaveLength(2);
  });

  it("hides it on a later visit to the page, saying why", () => {
    const html = render(true, null);
    expect(html).not.toContain("Start membership</button>");
    expect(html).toContain(CALL_ASKED_MESSAGE);
  });
});
