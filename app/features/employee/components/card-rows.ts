/**
 * The heading of a list that can be searched or filtered: 'Customers (9)' as it is, and what is
 * shown when a search or filter is on: 'Customers (2 of 9 customers)'. `shown` above `cap`
 * (a count that stopped there) reads "more than".
 */
export function listHeading(
  label: string,
  options: {
    shown: number;
    total: number;
    filtered: boolean;
    noun: [string, string];
    cap?: number;
  },
) {
  const { shown, total, filtered, noun, cap } = options;
  if (!filtered) return `${label} (${total})`;
  const number = (n: number) => n.toLocaleString("en-US");
  const shownText = cap !== undefined && shown > cap ? `more than ${number(cap)}` : number(shown);
  return `${label} (${shownText} of ${number(total)} ${total === 1 ? noun[0] : noun[1]})`;
}
