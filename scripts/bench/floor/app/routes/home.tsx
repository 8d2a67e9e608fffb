export default function Home() {
  return (
    <main>
      <h1>Framework floor</h1>
      <a href="/form">Form</a> <a href="/list">List</a>
    </main>
  );
}
