"""A write beside a busy ranked poll: how much longer an unrelated write takes while a client
keeps changing its ballot on a full ranked poll (30 options, 2,000 ballots) than while the
poll is idle. Two server processes on one SQLite file (as two workers would be): what they
share is the database's write lock, so a write that counted the runoff inside it would make
the bystander queue (about 11x when it did). The idle and busy phases alternate in one run,
so a machine busy with something else slows both alike. Run by `bench/run.py`; alone:

    uv run python bench/bystander.py
"""

from __future__ import annotations

import random
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

import httpx

#: The most a bystander's median write may take beside the busy poll, as a multiple of its
#: median while the poll is idle (1.3 to 1.5 measured on a quiet two-core machine).
TARGET = 2.0

#: A ranked poll at its cap: 30 options, 2,000 ballots (one short, so a vote still lands),
#: 1,500 distinct full rankings.
OPTIONS, BALLOTS, DISTINCT = 30, 2000, 1500

#: Interleaved rounds of the bystander's writes with the poll idle, then busy.
ROUNDS, WRITES_PER_PHASE = 6, 12

#: The client that keeps changing a ballot, in a process of its own: it says "go" after its
#: first change, then runs until stopped.
KEEP_CHANGING = """
import sys, httpx
base, token, ids = sys.argv[1], sys.argv[2], sys.argv[3].split(",")
with httpx.Client(base_url=base, timeout=60.0) as client:
    for n in range(1_000_000):
        order = ids if n % 2 else ids[::-1]
        response = client.post(f"/api/poll/v/{token}", json={"choices": order})
        assert response.status_code == 200, response.text
        if n == 0:
            print("go", flush=True)
"""


def full_ranked_poll(client: httpx.Client) -> dict[str, Any]:
    """Created and filled over HTTP, as its voters would; the first ballot's token kept."""
    made = client.post("/api/poll", json={
        "question": "Which of thirty?", "options": [f"Option {i}" for i in range(OPTIONS)],
        "ranked": True}).json()
    slug = made["slug"]
    ids = [entry["id"] for entry in client.get(f"/api/poll/{slug}").json()["tally"]]
    rng = random.Random(44)
    rankings = [ids, *(rng.sample(ids, len(ids)) for _ in range(DISTINCT - 1))]
    tokens = []
    for n in range(BALLOTS - 1):
        response = client.post("/api/poll/vote", json={"slug": slug,
                                                       "choices": rankings[n % DISTINCT]})
        if response.status_code != 201:
            raise RuntimeError(f"a vote to fill the poll failed: {response.text}")
        tokens.append(response.json()["token"])
    return {"slug": slug, "token": tokens[0], "ids": ids}


def measure(voting_base: str, other_base: str) -> dict[str, float]:
    """Median bystander write (ms) with the poll idle and busy, and their ratio."""
    with httpx.Client(base_url=voting_base, timeout=60.0) as voting, \
            httpx.Client(base_url=other_base, timeout=60.0) as client:
        poll = full_ranked_poll(voting)
        made = client.post("/api/poll", json={"question": "Lunch?",
                                              "options": ["Pizza", "Sushi"]}).json()
        pick = client.get(f"/api/poll/{made['slug']}").json()["tally"][0]["id"]

        def write() -> float:
            started = time.perf_counter()
            response = client.post("/api/poll/vote", json={"slug": made["slug"],
                                                           "choices": [pick]})
            if response.status_code != 201:
                raise RuntimeError(f"the bystander's vote failed: {response.text}")
            return time.perf_counter() - started

        def phase() -> list[float]:
            took = []
            for _ in range(WRITES_PER_PHASE):
                took.append(write())
                time.sleep(0.01)
            return took

        idle: list[float] = []
        busy: list[float] = []
        for _ in range(3):
            write()  # warm
        for _ in range(ROUNDS):
            idle.extend(phase())
            voter = subprocess.Popen(
                [sys.executable, "-c", KEEP_CHANGING, voting_base, poll["token"],
                 ",".join(poll["ids"])], stdout=subprocess.PIPE, text=True)
            try:
                if voter.stdout is None or voter.stdout.readline() != "go\n":
                    raise RuntimeError("the voter did not start")
                busy.extend(phase())
                if voter.poll() is not None:
                    raise RuntimeError("the voter stopped")
            finally:
                voter.kill()
                voter.wait()
    idle_ms, busy_ms = statistics.median(idle) * 1000, statistics.median(busy) * 1000
    return {"idle_ms": idle_ms, "busy_ms": busy_ms, "ratio": busy_ms / idle_ms,
            "target": TARGET}


def run(workdir: Path) -> dict[str, float]:
    """Two one-worker servers on one SQLite file, measured, stopped."""
    from run import Server  # the bench's server, started the same way as every scenario's

    url = f"sqlite:///{workdir / 'bystander.db'}"
    voting = Server(url, 1, workdir)
    try:
        other = Server(url, 1, workdir)
        try:
            return measure(voting.base, other.base)
        finally:
            other.stop()
    finally:
        voting.stop()


def line(found: dict[str, float]) -> str:
    return (f"A write beside a busy ranked poll: an unrelated vote's median is "
            f"{found['busy_ms']:.1f} ms while a client keeps changing its ballot on a full "
            f"ranked poll (30 options, 2,000 ballots) through another server process on the "
            f"same SQLite file, against {found['idle_ms']:.1f} ms with the poll idle "
            f"({found['ratio']:.2f}×; target at most {found['target']:.1f}×).")


if __name__ == "__main__":
    found = run(Path(tempfile.mkdtemp(prefix="groupkit-bystander-")))
    print(line(found))
    if found["ratio"] > TARGET:
        sys.exit(f"FAILED: over the {TARGET}x target")
