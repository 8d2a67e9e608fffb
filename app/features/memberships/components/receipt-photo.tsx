/** A part's receipt photo, small, opening the full picture (served at /part-receipts/:id). */
export function ReceiptPhoto({ part }: { part: { id: string; description: string } }) {
  return (
    <a href={`/part-receipts/${part.id}`} className="inline-block">
      <img
        src={`/part-receipts/${part.id}/thumbnail`}
        alt={`Receipt photo: ${part.description}`}
        width={64}
        height={64}
        loading="lazy"
        className="size-16 rounded object-cover"
      />
    </a>
  );
}
