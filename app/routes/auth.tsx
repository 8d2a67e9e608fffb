import { Link } from "react-router";

export function meta() {
  return [{ title: "Sign in" }];
}

export default function AuthPage() {
  return (
    <main className="mx-auto max-w-md px-4 py-16">
      <h1 className="text-2xl font-bold">Sign in</h1>
      <Link to="/">Back to home</Link>
    </main>
  );
}
