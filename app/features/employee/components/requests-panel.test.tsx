import { renderToString } from "react-dom/server";
import { createRoutesStub } from "react-router";
import { describe, expect, it } from "vitest";
import { PriorityBadge, StatusBadge } from "./request-badges";
import { RequestsPanel, withParams, type RequestsPanelData } from "./requests-panel";

function renderPanel(data: RequestsPanelData, total: number, url = "/employee") {
  const Stub = createRoutesStub([
    { path: "/employee", Component: () => <RequestsPanel data={data} total={total} /> },
  ]);
  // React separates adjacent text with <!-- -->; the reader sees one string.
  return renderToString(<Stub initialEntries={[url]} />).replace(/<!-- -->/g, "");
}

const empty: RequestsPanelData = {
  rows: [],
  older: null,
  newer: null,
  status: null,
  search: "",
  matching: 0,
};

describe("All Requests panel", () => {
  it("says what is shown when a search or filter is on, and a count that stopped at its cap", () => {
    expect(renderPanel({ ...empty, matching: 9 }, 9)).toContain("All Requests (9)");
    expect(
      renderPanel({ ...empty, status: "new", matching: 2 }, 9, "/employee?status=new"),
    ).toContain("All Requests (2 of 9 requests)");
    expect(
      renderPanel({ ...empty, search: "door", matching: 1001 }, 5000, "/employee?q=door"),
    ).toContain("All Requests (more than 1,000 of 5,000 requests)");
  });

  it("reads 'No requests yet' when there are none at all", () => {
    const html = renderPanel(empty, 0);
    expect(html).toContain("All Requests (0)");
    expect(html).toContain("No requests yet");
  });

  it("says a search found nothing, rather than that there are no requests", () => {
    const html = renderPanel({ ...empty, search: "chandelier" }, 12, "/employee?q=chandelier");
    expect(html).toContain("All Requests (0 of 12 requests)");
    expect(html).toContain("No requests match this search");
    expect(html).not.toContain("No requests yet");
  });

  it("filters through a GET form: 'Show requests' (all and each status) and 'Search requests'", () => {
    const html = renderPanel(
      { ...empty, status: "reviewed", search: "faucet" },
      3,
      "/employee?status=reviewed&q=faucet",
    );
    const form = html.match(/<form[^>]*>[\s\S]*?<\/form>/)?.[0] ?? "";
    expect(form).toMatch(/method="get"/);
    expect(form).toMatch(/<label[^>]*for="requests-status"[^>]*>Show requests<\/label>/);
    expect(form).toMatch(
      /<select[^>]*name="status"[^>]*id="requests-status"|<select[^>]*id="requests-status"[^>]*name="status"/,
    );
    const options = [...form.matchAll(/<option[^>]*value="([^"]*)"([^>]*)>([^<]*)<\/option>/g)];
    expect(options.map(([, value, , label]) => [value, label])).toEqual([
      ["all", "All"],
      ["new", "New"],
      ["reviewed", "Reviewed"],
      ["scheduled", "Scheduled"],
      ["complete", "Complete"],
    ]);
    expect(options.filter(([, , rest]) => /selected/.test(rest)).map(([, value]) => value)).toEqual(
      ["reviewed"],
    );
    expect(form).toMatch(/<label[^>]*for="requests-search"[^>]*>Search requests<\/label>/);
    expect(form).toMatch(/<input[^>]*name="q"[^>]*value="faucet"/);
    expect(form).toMatch(/<button[^>]*type="submit"[^>]*>[\s\S]*Search<\/button>/);
  });
});

describe("badges", () => {
  it("colour every status and priority the spec names, and say the value in words", () => {
    const cases: [React.ReactElement, string, string][] = [
      [<StatusBadge key="s1" status="new" />, "bg-yellow-100", "New"],
      [<StatusBadge key="s2" status="reviewed" />, "bg-blue-100", "Reviewed"],
      [<StatusBadge key="s3" status="scheduled" />, "bg-green-100", "Scheduled"],
      [<StatusBadge key="s4" status="complete" />, "bg-gray-100", "Complete"],
      [<PriorityBadge key="p1" priority="urgent" />, "bg-red-100", "Urgent"],
      [<PriorityBadge key="p2" priority="high" />, "bg-orange-100", "High"],
      [<PriorityBadge key="p3" priority="medium" />, "bg-yellow-100", "Medium"],
      [<PriorityBadge key="p4" priority="low" />, "bg-green-100", "Low"],
      [<PriorityBadge key="p5" priority="next" />, "bg-violet-100", "Next"],
      [<PriorityBadge key="p6" priority="later" />, "bg-sky-100", "Later"],
      [<StatusBadge key="s5" status="in_progress" />, "bg-gray-100", "In progress"],
    ];
    for (const [element, colour, label] of cases) {
      const html = renderToString(element);
      expect(html).toContain(colour);
      expect(html).toContain(label);
    }
  });
});

describe("withParams", () => {
  it("changes some parameters of the current URL and keeps the others", () => {
    expect(withParams("?q=faucet&after=abc", { before: "xyz", after: null })).toBe(
      "?q=faucet&before=xyz",
    );
    expect(withParams("?request=1", { request: null })).toBe("?");
  });
});
