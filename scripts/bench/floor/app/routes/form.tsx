import { Form, useLoaderData } from "react-router";

export function meta() {
  return [{ title: "Sign in" }];
}

export function loader() {
  return { heading: "Sign in", hint: "Use the e-mail address you joined with." };
}

export async function action({ request }: { request: Request }) {
  const form = await request.formData();
  return { email: String(form.get("email") ?? "") };
}

export default function FormPage() {
  const data = useLoaderData<typeof loader>();
  return (
    <main>
      <h1>{data.heading}</h1>
      <p>{data.hint}</p>
      <Form method="post">
        <div>
          <label htmlFor="email">Email</label>
          <input id="email" name="email" type="email" autoComplete="email" required />
        </div>
        <div>
          <label htmlFor="password">Password</label>
          <input
            id="password"
            name="password"
            type="password"
            autoComplete="current-password"
            required
          />
        </div>
        <button type="submit">Sign in</button>
      </Form>
    </main>
  );
}
