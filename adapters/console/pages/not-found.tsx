export function NotFound() {
  return (
    <>
      <h1>Page not found</h1>
      <p>
        <a href="/console">Back to your chatbots</a>
      </p>
    </>
  );
}
