"""A consumer of the fleet's stream (docs/fleet-stream.md), in Python with nats-py and jsonschema: it reads the
messages the bcstream workers publish to JetStream stream BCSTREAM and validates each against the published
schema.

    bcstream types --format json-schema > bcstream.schema.json
    python3 stream_consumer.py nats://127.0.0.1:4222 bcstream.schema.json [--subject 'bcstream.msg.>']
                               [--ends KEY,KEY...] [--timeout S]

Prints `ready` once connected, then per message `<stream seq> <subject> <Nats-Msg-Id>` (or `invalid <seq>
<subject>: <reason>`). With --ends it stops after the end of each of those lives (t 8 or 123 on that key), printing
`done <messages> invalid <count>`; else it runs until --timeout (default: forever) or Ctrl-C.
"""
import argparse
import asyncio
import json

import jsonschema
import nats
from nats.js.api import AckPolicy, ConsumerConfig, DeliverPolicy


async def consume(args):
    with open(args.schema, encoding="utf-8") as file:
        schema = json.load(file)
    validator = jsonschema.Draft202012Validator(schema, format_checker=jsonschema.FormatChecker())
    nc = await nats.connect(args.url, max_reconnect_attempts=-1)
    js = nc.jetstream()
    print("ready", flush=True)
    # An ephemeral pull consumer from the stream's first message. A service would name a durable one
    # (durable="my-service") and ack each message after handling it: at least once, resumed after a restart.
    config = ConsumerConfig(ack_policy=AckPolicy.EXPLICIT, deliver_policy=DeliverPolicy.ALL)
    while True:
        try:  # the first worker's first publish creates the stream
            subscription = await js.pull_subscribe(args.subject, stream="BCSTREAM", config=config)
            break
        except nats.js.errors.NotFoundError:
            await asyncio.sleep(0.2)
    waiting = {key for key in args.ends.split(",") if key}
    seen = invalid = 0
    while True:
        try:
            messages = await subscription.fetch(batch=100, timeout=1)
        except nats.errors.TimeoutError:
            continue
        for message in messages:
            seen += 1
            line = json.loads(message.data)
            error = jsonschema.exceptions.best_match(validator.iter_errors(line))
            kind = "error" if "error" in line else line.get("kind")  # decode errors go to <channel>.error
            if error is None and not message.subject.endswith(f".{kind}"):
                error = jsonschema.ValidationError(f"the subject's last token is not {kind}")
            sequence = message.metadata.sequence.stream
            if error is None:
                print(sequence, message.subject, (message.headers or {}).get("Nats-Msg-Id"), flush=True)
            else:
                invalid += 1
                print(f"invalid {sequence} {message.subject}: {error.message[:300]}", flush=True)
            await message.ack()
            if line.get("t") in (8, 123) and line.get("key") in waiting:
                waiting.discard(line["key"])
                if not waiting:
                    print(f"done {seen} invalid {invalid}", flush=True)
                    await nc.close()
                    return


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("url")
    parser.add_argument("schema")
    parser.add_argument("--subject", default="bcstream.msg.>")
    parser.add_argument("--ends", default="")
    parser.add_argument("--timeout", type=float)
    args = parser.parse_args()
    try:
        asyncio.run(asyncio.wait_for(consume(args), args.timeout))
    except asyncio.TimeoutError:
        print("timeout", flush=True)
    except KeyboardInterrupt:
        pass


if __name__ == "__main__":
    main()
