"""The fleet drill's NATS side (Benchmarks/fleet/drill.sh), with nats-py:

    drill_report.py wait-cluster SERVERS          until the cluster's JetStream answers (exit 1 after 30 s)
    drill_report.py leader SERVERS STREAM         prints the server name leading STREAM
    drill_report.py table SERVERS FACTS.json      reads BCSTREAM and BCSTREAM_STATUS back and prints the table;
                                                  exit 1 when the drill failed (see drill.sh)

The table comes from the streams alone: what was stored (each comment carries its live's key and its id, `lci`
1…MESSAGES, then t=123 ends the live), who stored it (a Nats-Msg-Id starts with the storing worker's run), and the
statuses (`resumed` when a live is taken over, `ended` after its last message). FACTS.json holds what the shell
measured: when it killed which worker, the node restart, each worker's CPU ticks and resident memory.
"""
import asyncio
import datetime
import json
import statistics
import sys

import nats
from nats.js.api import ConsumerConfig, DeliverPolicy


async def connect(servers):
    return await nats.connect(servers.split(","), max_reconnect_attempts=-1, connect_timeout=5)


async def wait_cluster(servers):
    nc = await connect(servers)
    js = nc.jetstream()
    loop = asyncio.get_running_loop()
    deadline = loop.time() + 30
    while loop.time() < deadline:
        try:
            await js.account_info()
            await nc.close()
            return 0
        except Exception:  # no JetStream leader yet
            await asyncio.sleep(0.5)
    await nc.close()
    return 1


async def leader(servers, stream):
    nc = await connect(servers)
    js = nc.jetstream()
    for _ in range(60):
        try:
            info = await js.stream_info(stream)
            if info.cluster and info.cluster.leader:
                print(info.cluster.leader)
                await nc.close()
                return 0
        except Exception:
            pass
        await asyncio.sleep(0.5)
    await nc.close()
    return 1


async def read_all(js, subject, stream, handle):
    """Every message of `stream` on `subject`, in order, given to `handle(msg)`; returns how many."""
    info = await js.stream_info(stream)
    total = info.state.messages
    if total == 0:
        return 0
    done = asyncio.Event()
    seen = 0

    async def received(msg):
        nonlocal seen
        seen += 1
        handle(msg)
        if msg.metadata.num_pending == 0:
            done.set()

    sub = await js.subscribe(subject, stream=stream, cb=received, ordered_consumer=True,
                             config=ConsumerConfig(deliver_policy=DeliverPolicy.ALL),
                             pending_msgs_limit=-1, pending_bytes_limit=-1)
    await asyncio.wait_for(done.wait(), timeout=600)
    await sub.unsubscribe()
    return seen


def seconds(iso):
    return datetime.datetime.fromisoformat(iso.replace("Z", "+00:00")).timestamp()


class Live:
    __slots__ = ("comments", "ends", "times", "backlog")

    def __init__(self):
        self.comments = {}  # lci -> times stored
        self.ends = 0
        self.times = {}  # lci -> receivedAt (seconds)
        self.backlog = set()  # lci stored as backlog (a take-over's refill)


async def table(servers, facts_path):
    with open(facts_path) as file:
        facts = json.load(file)
    nc = await connect(servers)
    js = nc.jetstream()
    lives = {}
    errors = []

    def message(msg):
        data = json.loads(msg.data)
        key = data.get("key")
        live = lives.setdefault(key, Live())
        t = data.get("t")
        if t == 1 or data.get("kind") == "backlogComment":
            lci = str(data["message"]["lci" if t == 1 else "id"])
            live.comments[lci] = live.comments.get(lci, 0) + 1
            live.times.setdefault(lci, seconds(data["receivedAt"]))
            if data.get("backlog"):
                live.backlog.add(lci)
        elif t == 123:
            live.ends += 1
        elif len(errors) < 5:
            errors.append(f"{msg.subject}: {msg.data[:200]!r}")

    statuses = {}

    def status(msg):
        data = json.loads(msg.data)
        statuses.setdefault(data["key"], []).append(data)

    stored = await read_all(js, "bcstream.msg.>", "BCSTREAM", message)
    await read_all(js, "bcstream.status.>", "BCSTREAM_STATUS", status)
    await nc.close()

    count, per_live = facts["lives"], facts["messages"]
    expected = {f"drill{r}:{i}" for r in range(facts["replays"])
                for i in range(r * -(-count // facts["replays"]) + 1, min(count, (r + 1) * -(-count // facts["replays"])) + 1)}
    sent = count * (per_live + 1)
    killed_at = facts["killed_at"]

    # Who held what, from the statuses: a live taken over has a `resumed` status (its first holder was the killed
    # worker: no other stops before the lives end); the others were held from the start by the worker whose pid
    # its `ended` status names.
    first_holder = {}
    for key, entries in statuses.items():
        if any(s["status"] == "resumed" for s in entries):
            first_holder[key] = facts["victim"]
        else:
            ended_by = [s["worker"].rsplit(":", 1)[-1] for s in entries if s["status"] == "ended"]
            if ended_by:
                first_holder[key] = int(ended_by[0])

    ended = [key for key in expected if key in lives and lives[key].ends >= 1
             and any(s["status"] == "ended" for s in statuses.get(key, []))]
    not_ended = sorted(expected - set(ended))
    duplicates = sum(n - 1 for live in lives.values() for n in live.comments.values() if n > 1) \
        + sum(live.ends - 1 for live in lives.values() if live.ends > 1)
    stranger_keys = sorted(set(lives) - expected)

    # The take-overs: lives with a `resumed` status, each re-claimed that long after the kill.
    reclaims = {}
    for key, entries in statuses.items():
        resumed = [seconds(s["at"]) for s in entries if s["status"] == "resumed"]
        if resumed:
            reclaims[key] = min(resumed) - killed_at
    orphaned = set(reclaims)

    lost_window = lost_elsewhere = refilled = 0
    windows = []
    gaps = []  # seconds between the stored comments either side of a live's loss
    for key in expected:
        live = lives.get(key, Live())
        missing = [i for i in range(1, per_live + 1) if str(i) not in live.comments]
        refilled += len(live.backlog)
        if key in orphaned and missing:
            # Lost in the window: a run of comments no longer than the window (kill to re-claim) and a pace.
            span = (max(missing) - min(missing) + 1) * facts["pace"]
            inside = span <= reclaims[key] + 2 * facts["pace"]
            lost_window += len(missing) if inside else 0
            lost_elsewhere += 0 if inside else len(missing)
            before, after = live.times.get(str(min(missing) - 1)), live.times.get(str(max(missing) + 1))
            if inside and before is not None and after is not None:
                gaps.append(after - before)
        else:
            lost_elsewhere += len(missing)
        if key in reclaims:
            windows.append(reclaims[key])

    stored_per_live = [sum(lives[k].comments.values()) + lives[k].ends if k in lives else 0 for k in expected]
    limit = facts["claim_timeout"] + 10
    slowest = max(reclaims.values(), default=0)

    def row(name, value):
        print(f"  {name:<34} {value}")

    print()
    print(f"fleet drill: {count:,} lives ({per_live} comments {facts['pace']} s apart, then the end), "
          f"{len(facts['workers'])} workers, {facts['replays']} replay process(es), claim timeout {facts['claim_timeout']} s")
    print(f"  every live followed {facts['followed_at'] - facts['queued_at']:.1f} s after queueing; worker killed "
          f"{killed_at - facts['queued_at']:.1f} s in; NATS node {facts['node']} down "
          f"{facts['node_up_at'] - facts['node_down_at']:.1f} s, {facts['node_down_at'] - killed_at:.1f} s after the kill")
    print()
    row("lives followed to their end", f"{len(ended):,} of {count:,}" + (f"  (not: {', '.join(not_ended[:5])}…)" if not_ended else ""))
    row("messages stored / sent", f"{stored:,} / {sent:,}; per live min {min(stored_per_live)}, "
        f"median {statistics.median(stored_per_live):g}, max {max(stored_per_live)} of {per_live + 1}")
    row("lives taken over", f"{len(orphaned):,} (the killed worker's, not ended at the kill; `resumed` statuses)")
    if windows:
        row("re-claimed after the kill", f"all within {slowest:.1f} s (median {statistics.median(windows):.1f} s; "
            f"limit {limit} s)")
    row("messages lost in take-over windows", f"{lost_window:,}" + (f" over {len(windows):,} lives, "
        f"expected about {statistics.mean(windows) / facts['pace']:.1f} a live ({statistics.mean(windows):.1f} s "
        f"window / {facts['pace']} s pace)" if windows else ""))
    if gaps:
        row("stored comments around a loss", f"median {statistics.median(gaps):.1f} s apart, max {max(gaps):.1f} s "
            f"(the window plus up to one pace)")
    row("comments refilled from the backlog", f"{refilled:,} (by the worker taking a live over; already counted "
        "as stored, not as lost)")
    row("messages lost elsewhere", f"{lost_elsewhere:,}")
    row("messages stored twice", f"{duplicates:,}")
    if stranger_keys:
        row("keys not queued", f"{len(stranger_keys)}: {', '.join(stranger_keys[:3])}")
    if errors:
        row("other messages", "; ".join(errors))

    print()
    hz = facts["hz"]
    window = facts["killed_at"] - facts["followed_at"]
    print(f"  worker   lives   CPU per live (% core)   resident per live   (the {window:.0f} s between every live "
          "followed and the kill; lives from the statuses)")
    held_from_start = {}
    for key, pid in first_holder.items():
        held_from_start[pid] = held_from_start.get(pid, 0) + 1
    for worker in facts["workers"]:
        pid = worker["pid"]
        held = held_from_start.get(pid, 0)
        if held == 0 or window <= 0:
            print(f"  {pid:<8} {held:>5}   -")
            continue
        cpu = (worker["cpu_kill"] - worker["cpu_start"]) / hz / window * 100
        rss = (worker["rss_kill"] - worker["rss_base"]) / held
        growth = worker["rss_kill"] - worker["rss_start"]
        note = " (killed)" if pid == facts["victim"] else ""
        print(f"  {pid:<8} {held:>5}   {cpu / held:.4f} ({cpu:.1f}% in all)     {rss:.0f} KiB "
              f"({worker['rss_kill'] / 1024:.0f} MiB; {growth / 1024:+.1f} MiB over the window){note}")

    failures = []
    if not_ended:
        failures.append(f"{len(not_ended)} lives not followed to their end")
    if duplicates:
        failures.append(f"{duplicates} messages stored twice")
    if lost_elsewhere:
        failures.append(f"{lost_elsewhere} messages lost outside a take-over window")
    if slowest > limit:
        failures.append(f"a re-claim took {slowest:.1f} s (limit: claim timeout + 10 s = {limit} s)")
    print()
    for failure in failures:
        print(f"FAILED: {failure}")
    if not failures:
        print("PASSED: every live followed to its end, nothing stored twice, only take-over windows lost")
    return 1 if failures else 0


def main():
    command = sys.argv[1]
    if command == "wait-cluster":
        return asyncio.run(wait_cluster(sys.argv[2]))
    if command == "leader":
        return asyncio.run(leader(sys.argv[2], sys.argv[3]))
    if command == "table":
        return asyncio.run(table(sys.argv[2], sys.argv[3]))
    print(__doc__, file=sys.stderr)
    return 2


if __name__ == "__main__":
    sys.exit(main())
