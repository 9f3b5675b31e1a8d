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
    __slots__ = ("comments", "ends", "runs", "times", "backlog")

    def __init__(self):
        self.comments = {}  # lci -> times stored
        self.ends = 0
        self.runs = []  # the run of each stored message, in stream order
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
        run = ((msg.headers or {}).get("Nats-Msg-Id") or "")[:36]
        live.runs.append(run)
        t = data.get("t")
        if t == 1:
            lci = str(data["message"]["lci"])
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

    # Who held what: the runs that stored each live's messages; a run is a worker process.
    run_keys = {}
    for key, live in lives.items():
        for run in set(live.runs):
            run_keys.setdefault(run, set()).add(key)
    pid_of_run = {}
    for run, keys in run_keys.items():
        pids = {s["worker"].rsplit(":", 1)[-1] for key in keys for s in statuses.get(key, [])
                if s["status"] == "ended" and lives[key].runs and lives[key].runs[-1] == run}
        if len(pids) == 1:
            pid_of_run[run] = int(pids.pop())
    victim_runs = [run for run in run_keys if run not in pid_of_run]
    victim_run = victim_runs[0] if len(victim_runs) == 1 else None

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
    orphaned = {key for key, live in lives.items() if victim_run in live.runs and live.runs[-1] != victim_run}
    not_reclaimed = sorted(orphaned - set(reclaims))

    lost_window = lost_elsewhere = refilled = 0
    windows = []
    gaps = []  # seconds between the stored comments either side of a live's loss
    for key in expected:
        live = lives.get(key, Live())
        missing = [i for i in range(1, per_live + 1) if str(i) not in live.comments]
        refilled += len(live.backlog)
        if key in orphaned and missing:
            # Lost in the window: between the last comment the dead worker stored and the first its successor did.
            gap = [i for i in missing if min(missing) <= i <= max(missing)]
            contiguous = len(gap) == max(missing) - min(missing) + 1
            lost_window += len(missing) if contiguous else 0
            before, after = live.times.get(str(min(missing) - 1)), live.times.get(str(max(missing) + 1))
            if contiguous and before is not None and after is not None:
                gaps.append(after - before)
            lost_elsewhere += 0 if contiguous else len(missing)
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
    row("lives taken over", f"{len(orphaned):,} (the killed worker's, not ended at the kill)")
    if windows:
        row("re-claimed after the kill", f"all within {slowest:.1f} s (median {statistics.median(windows):.1f} s; "
            f"limit {limit} s)" + (f"; {len(not_reclaimed)} never" if not_reclaimed else ""))
    elif orphaned:
        row("re-claimed after the kill", f"none of {len(orphaned)} (no `resumed` status)")
    row("messages lost in take-over windows", f"{lost_window:,}" + (f" over {len(windows):,} lives, "
        f"expected about {statistics.mean(windows) / facts['pace']:.1f} a live ({statistics.mean(windows):.1f} s "
        f"window / {facts['pace']} s pace)" if windows else ""))
    if gaps:
        row("stored comments around a loss", f"median {statistics.median(gaps):.1f} s apart, max {max(gaps):.1f} s "
            f"(the window plus up to one pace)")
    if refilled:
        row("comments refilled from the backlog", f"{refilled:,}")
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
          "followed and the kill; lives from the stream)")
    first_run = {}
    for key, live in lives.items():
        if live.runs:
            first_run.setdefault(live.runs[0], 0)
            first_run[live.runs[0]] += 1
    for worker in facts["workers"]:
        pid = worker["pid"]
        run = victim_run if pid == facts["victim"] else next((r for r, p in pid_of_run.items() if p == pid), None)
        held = first_run.get(run, 0)
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
    if not_reclaimed:
        failures.append(f"{len(not_reclaimed)} orphaned lives never re-claimed")
    if slowest > limit:
        failures.append(f"a re-claim took {slowest:.1f} s (limit: claim timeout + 10 s = {limit} s)")
    if victim_run is None and len(facts["workers"]) > 1:
        failures.append(f"could not tell the killed worker's run from the stream ({len(victim_runs)} candidates)")
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
