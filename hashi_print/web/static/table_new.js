// Making a table: the server picks a code nobody can guess and gives this browser the host's token.
import {_} from "./strings.js";
import {call, remember, setStatus} from "./table_common.js";

document.getElementById("new-table").addEventListener("submit", async (e) => {
  e.preventDefault();
  const form = new FormData(e.target);
  const seed = form.get("seed") === "" ? null : Number(form.get("seed"));
  try {
    setStatus(_("Making the table…"));
    const made = await call("POST", "", {body: {side: form.get("side"), seed, keep_photos: form.get("keep_photos") === "on"}});
    remember(made.code, {host: made.host_token, join: made.join_url});
    location.assign(`/table/${made.code}/host`);
  } catch (err) {
    setStatus(err.message, "error");
  }
});

// A player who has the code but not the link types it here.
document.getElementById("join-code").addEventListener("submit", (e) => {
  e.preventDefault();
  const typed = new FormData(e.target).get("code").replace(/[\s-]/g, "").toUpperCase();
  location.assign(`/table/${encodeURIComponent(typed)}`);
});
