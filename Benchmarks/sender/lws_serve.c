/*
 * lws_serve: the C reference of the sender benchmark. A libwebsockets (4.1) bcsvr server on 127.0.0.1 that
 * serves one client: on `SUB<TAB>key` it sends MESSAGES `MSG<TAB>key<TAB>json` text frames, cycling over the
 * lines of CORPUS (one JSON message a line), as fast as the client takes them, then `MSG<TAB>key<TAB>{"t":8}`
 * (the live ended). It answers `PING` with `ACK`, keeps the connection until the client closes it, then exits.
 *
 * It is the plain way to write it: one lws_write (one frame, one send) per message, from
 * LWS_CALLBACK_SERVER_WRITEABLE, asking for the next writable callback while messages remain. No extensions
 * (no permessage-deflate). The corpus is read before the port is printed, so start-up is over by then.
 *
 * Usage: lws_serve PORT CORPUS MESSAGES      (PORT 0: any free port)
 * Prints "port=N" on stdout once it listens. At the end prints "served key=K sent=N" (the MSG messages before
 * the t=8) on stderr; exits 0 once the t=8 went out and the client closed, 1 otherwise.
 *
 * Build: cc -O2 -o lws_serve lws_serve.c -lwebsockets
 */
#include <libwebsockets.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MAX_KEY 256

static long total;   /* the MSG messages to send */
static int finished; /* the client's connection is over */

/* The corpus: one JSON message a line, kept in one block. */
static char *corpus;
static const char **lines;
static size_t *sizes;
static size_t count, longest;

/* The frame being written: LWS_PRE bytes for lws, then "MSG\t<key>\t" once per subscription, then a line. */
static unsigned char *frame;

/* The one client. */
static struct {
	int subscribed;
	size_t prefix; /* bytes of "MSG\t<key>\t" */
	long sent;     /* MSG messages sent, the t=8 not counted */
	int ended;     /* the t=8 went out */
	long acks;     /* ACKs owed */
	char key[MAX_KEY + 1];
} client;

static void load(const char *path)
{
	FILE *file = fopen(path, "rb");
	if (!file) {
		perror(path);
		exit(1);
	}
	size_t capacity = 1 << 20, length = 0, got;
	corpus = malloc(capacity);
	while (corpus && (got = fread(corpus + length, 1, capacity - length, file)) > 0) {
		length += got;
		if (length == capacity)
			corpus = realloc(corpus, capacity *= 2);
	}
	if (!corpus) {
		fprintf(stderr, "lws_serve: out of memory\n");
		exit(1);
	}
	if (ferror(file)) {
		perror(path);
		exit(1);
	}
	fclose(file);

	size_t allocated = 0;
	char *line = corpus, *end = corpus + length;
	while (line < end) {
		char *newline = memchr(line, '\n', (size_t)(end - line));
		size_t size = (size_t)((newline ? newline : end) - line);
		if (size && line[size - 1] == '\r')
			size--;
		if (size) {
			if (count == allocated) {
				allocated = allocated ? allocated * 2 : 1024;
				lines = realloc(lines, allocated * sizeof *lines);
				sizes = realloc(sizes, allocated * sizeof *sizes);
				if (!lines || !sizes) {
					fprintf(stderr, "lws_serve: out of memory\n");
					exit(1);
				}
			}
			lines[count] = line;
			sizes[count++] = size;
			if (size > longest)
				longest = size;
		}
		line = newline ? newline + 1 : end;
	}
	if (!count) {
		fprintf(stderr, "lws_serve: %s holds no message\n", path);
		exit(1);
	}
}

/* One text frame of `size` bytes, already at frame + LWS_PRE. */
static int send_frame(struct lws *wsi, size_t size)
{
	return lws_write(wsi, frame + LWS_PRE, size, LWS_WRITE_TEXT) < (int)size ? -1 : 0;
}

/* A whole message from the client: SUB starts the corpus (the first one only), PING is owed an ACK. */
static void command(struct lws *wsi, const char *text, size_t size)
{
	while (size) {
		const char *newline = memchr(text, '\n', size);
		size_t line = (size_t)((newline ? newline : text + size) - text);
		size_t next = newline ? line + 1 : line;
		if (line && text[line - 1] == '\r')
			line--;
		if (line > 4 && memcmp(text, "SUB\t", 4) == 0 && !client.subscribed) {
			size_t key = line - 4;
			if (key > MAX_KEY)
				key = MAX_KEY;
			memcpy(client.key, text + 4, key);
			client.key[key] = '\0';
			memcpy(frame + LWS_PRE, "MSG\t", 4);
			memcpy(frame + LWS_PRE + 4, client.key, key);
			frame[LWS_PRE + 4 + key] = '\t';
			client.prefix = 4 + key + 1;
			client.subscribed = 1;
			lws_callback_on_writable(wsi);
		} else if ((line == 4 || (line > 4 && text[4] == '\t')) && memcmp(text, "PING", 4) == 0) {
			client.acks++;
			lws_callback_on_writable(wsi);
		}
		text += next;
		size -= next;
	}
}

static int callback(struct lws *wsi, enum lws_callback_reasons reason, void *user, void *in, size_t len)
{
	(void)user;
	switch (reason) {
	case LWS_CALLBACK_RECEIVE:
		/* The client's commands are a few bytes: one fragment, well under rx_buffer_size. */
		if (lws_is_first_fragment(wsi) && lws_is_final_fragment(wsi) && !lws_remaining_packet_payload(wsi))
			command(wsi, in, len);
		break;

	case LWS_CALLBACK_SERVER_WRITEABLE:
		/* One frame per callback: an ACK owed first, then the next message, then the t=8. */
		if (client.acks) {
			unsigned char ack[LWS_PRE + 3];
			memcpy(ack + LWS_PRE, "ACK", 3);
			if (lws_write(wsi, ack + LWS_PRE, 3, LWS_WRITE_TEXT) < 3)
				return -1;
			client.acks--;
			lws_callback_on_writable(wsi);
		} else if (client.subscribed && client.sent < total) {
			size_t line = (size_t)(client.sent % (long)count);
			memcpy(frame + LWS_PRE + client.prefix, lines[line], sizes[line]);
			if (send_frame(wsi, client.prefix + sizes[line]))
				return -1;
			client.sent++;
			lws_callback_on_writable(wsi);
		} else if (client.subscribed && !client.ended) {
			memcpy(frame + LWS_PRE + client.prefix, "{\"t\":8}", 7);
			if (send_frame(wsi, client.prefix + 7))
				return -1;
			client.ended = 1;
		}
		break;

	case LWS_CALLBACK_CLOSED:
		finished = 1;
		break;

	default:
		break;
	}
	return 0;
}

static const struct lws_protocols protocols[] = {
	/* The first protocol takes the connections that name none, as bcsvr clients do. */
	{ "bcsvr-serve", callback, 0, 4096, 0, NULL, 0 },
	{ NULL, NULL, 0, 0, 0, NULL, 0 },
};

int main(int argc, char **argv)
{
	if (argc != 4) {
		fprintf(stderr, "usage: %s PORT CORPUS MESSAGES\n", argv[0]);
		return 64;
	}
	char *end;
	long port = strtol(argv[1], &end, 10);
	if (*end || port < 0 || port > 65535) {
		fprintf(stderr, "lws_serve: bad port %s\n", argv[1]);
		return 64;
	}
	total = strtol(argv[3], &end, 10);
	if (*end || total < 0) {
		fprintf(stderr, "lws_serve: bad message count %s\n", argv[3]);
		return 64;
	}
	load(argv[2]);
	frame = malloc(LWS_PRE + 4 + MAX_KEY + 1 + (longest > 7 ? longest : 7));
	if (!frame) {
		fprintf(stderr, "lws_serve: out of memory\n");
		return 1;
	}
	lws_set_log_level(LLL_ERR, NULL);

	struct lws_context_creation_info info;
	memset(&info, 0, sizeof info);
	info.port = (int)port;
	info.iface = "127.0.0.1";
	info.options = LWS_SERVER_OPTION_DISABLE_IPV6;
	info.protocols = protocols; /* no extensions: nothing is compressed */
	info.gid = -1;
	info.uid = -1;
	struct lws_context *context = lws_create_context(&info);
	if (!context) {
		fprintf(stderr, "lws_serve: lws_create_context failed (cannot listen on 127.0.0.1:%ld?)\n", port);
		return 1;
	}
	struct lws_vhost *vhost = lws_get_vhost_by_name(context, "default");
	int listening = vhost ? lws_get_vhost_listen_port(vhost) : -1;
	if (listening <= 0) {
		fprintf(stderr, "lws_serve: not listening on 127.0.0.1:%ld\n", port);
		lws_context_destroy(context);
		return 1;
	}
	printf("port=%d\n", listening);
	fflush(stdout);

	while (!finished && lws_service(context, 0) >= 0)
		;
	lws_context_destroy(context);

	fprintf(stderr, "served key=%s sent=%ld%s\n", client.key, client.sent,
	        client.ended ? "" : " (closed before the live ended)");
	free(frame);
	free(lines);
	free(sizes);
	free(corpus);
	return client.ended ? 0 : 1;
}
