import { useLoaderData } from "react-router";

const STATUSES = ["new", "reviewed", "scheduled", "complete"] as const;

// One formatter for the module, as the product formats its dates: toLocaleDateString builds a
// new Intl formatter on every call, which made this floor 3.6 times slower than a lean list
// and every ratio against it 3.6 times too kind (issue 45).
const DATE = new Intl.DateTimeFormat("en-US", { dateStyle: "medium", timeZone: "UTC" });

export function meta() {
  return [{ title: "Your requests" }];
}

export function loader() {
  const start = Date.UTC(2026, 0, 1);
  return {
    cards: Array.from({ length: 30 }, (_, i) => ({
      id: `request-${i + 1}`,
      title: `Request ${i + 1}: the hall closet door sticks`,
      description: "The hall closet door sticks in humid weather and needs planing.",
      status: STATUSES[i % STATUSES.length],
      priority: i % 2 === 0 ? "next" : "later",
      createdAt: new Date(start + i * 86_400_000).toISOString(),
    })),
  };
}

export default function ListPage() {
  const { cards } = useLoaderData<typeof loader>();
  return (
    <main>
      <h1>Your requests</h1>
      <ul>
        {cards.map((card) => (
          <li key={card.id}>
            <article aria-labelledby={`${card.id}-title`}>
              <h2 id={`${card.id}-title`}>{card.title}</h2>
              <p>
                <span>{card.status}</span> · <span>{card.priority}</span> ·{" "}
                <time dateTime={card.createdAt}>{DATE.format(new Date(card.createdAt))}</time>
              </p>
              <p>{card.description}</p>
            </article>
          </li>
        ))}
      </ul>
    </main>
  );
}
