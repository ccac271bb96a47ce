// Calls to the server's JSON API; a refused request throws an Error carrying the server's one line.
export async function post(path, body) {
  const response = await fetch(`/api/${path}`, {
    method: "POST",
    headers: {"Content-Type": "application/json"},
    body: JSON.stringify(body),
  });
  const data = await response.json();
  if (!response.ok) throw new Error(data && data.error ? data.error : `HTTP ${response.status}`);
  return data;
}

let shown = 0;

// How many status lines have been shown: a late answer compares it to know whether a newer line came since.
export function statusCount() { return shown; }

export function setStatus(text, kind = "") {
  shown += 1;
  const node = document.getElementById("status");
  node.textContent = text;
  node.className = `status ${kind}`;
}
