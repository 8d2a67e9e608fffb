import { renderToString } from "react-dom/server";
import { createRoutesStub } from "react-router";
import { describe, expect, it } from "vitest";
import type { ActiveMembership } from "../counters.server";
import { MembershipLink } from "./membership-link";

function render(membership: ActiveMembership) {
  const Stub = createRoutesStub([
    {
      path: "/employee",
      Component: () => <MembershipLink customerId="c1" membership={membership} name="Priya" />,
    },
  ]);
  return renderToString(<Stub initialEntries={["/employee"]} />).replace(/<!-- -->/g, "");
}

describe("staff Customers' membership link (issue 40, item 12; issue 39, item 11)", () => {
  it("a negative bank reads booked ahead of payment, never '-18 min left'", () => {
    const html = render({
      planName: "Essential",
      minutesLeft: -18,
      status: "active",
      balanceCents: 0,
    });
    expect(html).toContain("Essential, 18 min booked ahead of payment");
    expect(html).not.toContain("-18 min");
  });

  it("hours left in hours and minutes, with what is owed", () => {
    expect(
      render({ planName: "Complete", minutesLeft: 735, status: "active", balanceCents: 29_500 }),
    ).toContain("Complete, 12 h 15 min left, owes $295.00");
  });
});
