// damka-web lobby: the open, live and finished online games from GET /api/rooms, one element
// with data-room="ID" per game, refreshed every few seconds.

const REFRESH_MS = 3000;

function minutes(time) {
  return time[0] / 60 + " min + " + time[1] + " s";
}

// Moves as players count them (a White move and Black's answer are one), singular for one.
function moveCount(plies) {
  const n = Math.ceil(plies / 2);
  return n + (n === 1 ? " move" : " moves");
}

function entry(id, text, links) {
  const li = document.createElement("li");
  li.dataset.room = id;
  li.append(text + " ");
  for (const [label, href] of links) {
    const a = document.createElement("a");
    a.href = href;
    a.textContent = label;
    li.append(a, " ");
  }
  return li;
}

async function refresh() {
  const status = document.getElementById("lobby-status");
  try {
    const resp = await fetch("/api/rooms");
    const lobby = await resp.json();
    document.getElementById("open-rooms").replaceChildren(
      ...lobby.open.map((r) =>
        entry(r.id, r.variant + ", " + minutes(r.time) + ", waiting for " + (r.seats[0] ? "Black" : "White"), [["Join", "/room/" + r.id]])
      )
    );
    document.getElementById("live-rooms").replaceChildren(
      ...lobby.live.map((r) =>
        entry(r.id, r.variant + ", " + minutes(r.time) + ", move " + (Math.floor(r.plies / 2) + 1) + ", " + r.spectators + " watching: " + r.status, [["Watch", "/room/" + r.id + "?watch"]])
      )
    );
    document.getElementById("finished-rooms").replaceChildren(
      ...lobby.finished.map((r) =>
        entry(r.id, r.variant + ": " + r.status + (r.result === "*" ? "" : ", " + r.result) + " in " + moveCount(r.plies), [["View", "/room/" + r.id + "?watch"], ["PDN", "/api/rooms/" + r.id + "/pdn"]])
      )
    );
    status.textContent = "";
  } catch (e) {
    status.textContent = "Cannot reach the server: " + e;
  }
}

refresh();
setInterval(refresh, REFRESH_MS);
