"""An independent reader of bcstream's JetStream streams, written with nats-py (not our nats.c binding).

    python3 nats_consumer.py read NATS_URL[,NATS_URL...] --ends KEY,KEY... [--timeout S]

Reads stream BCSTREAM from its first message with an ephemeral pull consumer on `bcstream.msg.>` (no acks,
so nothing is redelivered; in stream order) and prints one JSON
line per message: {"subject", "id" (Nats-Msg-Id), "seq" (stream sequence), "data" (the payload, parsed)}. It
stops, printing `done N`, once it has seen the end of every live in --ends (a message with t 8 or 123 on that
key), or says `timeout N` after --timeout seconds. Its first line is `ready`.

    python3 nats_consumer.py status NATS_URL --count N [--timeout S]

With --output FILE the message lines go to FILE instead, and stdout says `read N` every 50 messages.

Prints the first N messages of stream BCSTREAM_STATUS the same way.

    python3 nats_consumer.py publish NATS_URL --subject SUBJECT --data TEXT

Publishes TEXT as it is (a hand-made follow request, say) to SUBJECT through JetStream and prints
`published SEQ` once the stream stored it.
"""
import argparse
import asyncio
import json
import os
import sys

import nats
from nats.js.api import AckPolicy, ConsumerConfig, DeliverPolicy


def line(message):
    headers = message.headers or {}
    return json.dumps({
        "subject": message.subject,
        "id": headers.get("Nats-Msg-Id"),
        "seq": message.metadata.sequence.stream,
        "data": json.loads(message.data),
    }, sort_keys=True)


async def subscribe(js, subject, stream, deadline):
    # The stream may not exist yet: bcstream creates it with its first publish. (A pull consumer, not an ordered
    # push consumer: nats-py's ordered consumer was seen to stall mid-stream under flow control.)
    loop = asyncio.get_running_loop()
    config = ConsumerConfig(ack_policy=AckPolicy.NONE, deliver_policy=DeliverPolicy.ALL,
                            inactive_threshold=60.0)
    while True:
        try:
            return await js.pull_subscribe(subject, stream=stream, config=config)
        except Exception:
            if loop.time() > deadline:
                raise
            await asyncio.sleep(0.2)


async def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("scenario", choices=["read", "status", "publish"])
    parser.add_argument("--subject", default="")
    parser.add_argument("--data", default="")
    parser.add_argument("url")
    parser.add_argument("--ends", default="")
    parser.add_argument("--count", type=int, default=0)
    parser.add_argument("--timeout", type=float, default=60)
    parser.add_argument("--output", help="write the message lines to this file instead of stdout")
    args = parser.parse_args()
    out = open(args.output, "w") if args.output else sys.stdout
    loop = asyncio.get_running_loop()
    deadline = loop.time() + args.timeout
    nc = await nats.connect(servers=args.url.split(","), max_reconnect_attempts=-1, reconnect_time_wait=0.2)
    js = nc.jetstream()
    print("ready", flush=True)
    if args.scenario == "publish":
        ack = await js.publish(args.subject, args.data.encode("utf-8"))
        print(f"published {ack.seq}", flush=True)
        await nc.close()
        return
    if args.scenario == "read":
        subject, stream = "bcstream.msg.>", "BCSTREAM"
    else:
        subject, stream = "bcstream.status.>", "BCSTREAM_STATUS"
    sub = await subscribe(js, subject, stream, deadline)
    waiting = {key for key in args.ends.split(",") if key}
    seen = 0
    while True:
        remaining = deadline - loop.time()
        if remaining <= 0:
            info = await js.stream_info(stream)
            print(f"timeout {seen} of {info.state.messages} stored", flush=True)
            break
        try:
            messages = await sub.fetch(batch=100, timeout=min(remaining, 1.0))
        except nats.errors.TimeoutError:
            continue
        finished = False
        for message in messages:
            seen += 1
            print(line(message), file=out, flush=True)
            if out is not sys.stdout and seen % 50 == 0:
                print(f"read {seen}", flush=True)
            data = json.loads(message.data)
            if args.scenario == "read" and data.get("t") in (8, 123):
                waiting.discard(data.get("key"))
                finished = not waiting
            if args.scenario == "status" and seen >= args.count:
                finished = True
            if finished:
                print(f"done {seen}", flush=True)
                break
        if finished:
            break
    await nc.close()


if __name__ == "__main__":
    # Ends with the test: stdin reaching end of file means the test process is gone.
    async def guarded():
        reader = asyncio.get_running_loop().run_in_executor(None, sys.stdin.read)
        work = asyncio.ensure_future(main())
        done, _ = await asyncio.wait([work, reader], return_when=asyncio.FIRST_COMPLETED)
        if work in done:
            work.result()
        # The stdin reader's thread would keep the interpreter alive: leave at once.
        sys.stdout.flush()
        os._exit(0)
    try:
        asyncio.run(guarded())
    except KeyboardInterrupt:
        pass
