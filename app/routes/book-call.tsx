export function meta() {
  return [{ title: "Book an Intro Call" }];
}

export default function BookCall() {
  return (
    <section className="mx-auto max-w-4xl px-4 py-16">
      <h1 className="text-4xl font-bold">Ready to Transform Your Home? Let&apos;s Talk Strategy</h1>
    </section>
  );
}
