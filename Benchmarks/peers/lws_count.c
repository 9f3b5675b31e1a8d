/*
 * lws_count: the raw floor of the peer benchmark. A libwebsockets (4.1) client that subscribes to one
 * bcsvr key, counts the whole MSG messages it receives and stops at the live-ended message ({"t":8}).
 * It decodes nothing: it only joins a message's fragments to look at its start and its end.
 *
 * Usage: lws_count PORT KEY      (connects to ws://127.0.0.1:PORT/)
 * Prints "messages N" (the MSG messages before the t=8) on stderr; exits 0 once the t=8 came, 1 otherwise.
 *
 * Build: cc -O2 -o lws_count lws_count.c -lwebsockets
 */
#include <libwebsockets.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char *key;
static long messages;
static int ended;    /* the t=8 came */
static int finished; /* the connection is over, one way or another */

/* One message, joined from its fragments (lws hands over at most rx_buffer_size bytes at a time). */
static char *message;
static size_t length, capacity;

static void append(const void *bytes, size_t count)
{
	if (length + count > capacity) {
		capacity = (length + count) * 2;
		message = realloc(message, capacity);
		if (!message) {
			fprintf(stderr, "lws_count: out of memory\n");
			exit(1);
		}
	}
	memcpy(message + length, bytes, count);
	length += count;
}

static int ends_with(const char *text, size_t size, const char *suffix)
{
	size_t n = strlen(suffix);
	return size >= n && memcmp(text + size - n, suffix, n) == 0;
}

/* A whole message: every line of it that is `MSG<TAB>key<TAB>json` counts, and t=8 ends the run. The
 * top-level "t" is the JSON's first or last key in bcsvr messages, so no JSON parser is needed here. */
static void message_complete(void)
{
	char *line = message, *end = message + length;
	while (line < end) {
		char *newline = memchr(line, '\n', (size_t)(end - line));
		size_t size = (size_t)((newline ? newline : end) - line);
		if (size && line[size - 1] == '\r')
			size--;
		if (size > 4 && memcmp(line, "MSG\t", 4) == 0) {
			char *json = memchr(line + 4, '\t', size - 4);
			if (json) {
				json++;
				size_t json_size = size - (size_t)(json - line);
				if ((json_size >= 7 && memcmp(json, "{\"t\":8", 6) == 0 && (json[6] == '}' || json[6] == ','))
				    || ends_with(json, json_size, ",\"t\":8}")) {
					ended = 1;
					return;
				}
				messages++;
			}
		}
		line = newline ? newline + 1 : end;
	}
}

static int callback(struct lws *wsi, enum lws_callback_reasons reason, void *user, void *in, size_t len)
{
	(void)user;
	switch (reason) {
	case LWS_CALLBACK_CLIENT_ESTABLISHED:
		lws_callback_on_writable(wsi);
		break;

	case LWS_CALLBACK_CLIENT_WRITEABLE: {
		unsigned char buffer[LWS_PRE + 512];
		int n = snprintf((char *)buffer + LWS_PRE, sizeof buffer - LWS_PRE, "SUB\t%s", key);
		if (n < 0 || (size_t)n >= sizeof buffer - LWS_PRE || lws_write(wsi, buffer + LWS_PRE, (size_t)n, LWS_WRITE_TEXT) < n)
			return -1;
		break;
	}

	case LWS_CALLBACK_CLIENT_RECEIVE:
		if (lws_is_first_fragment(wsi))
			length = 0;
		append(in, len);
		if (lws_is_final_fragment(wsi) && !lws_remaining_packet_payload(wsi)) {
			message_complete();
			if (ended) {
				lws_close_reason(wsi, LWS_CLOSE_STATUS_NORMAL, (unsigned char *)"done", 4);
				return -1; /* closes the connection */
			}
		}
		break;

	case LWS_CALLBACK_CLIENT_CONNECTION_ERROR:
		fprintf(stderr, "lws_count: connection failed: %s\n", in ? (const char *)in : "(no reason)");
		finished = 1;
		break;

	case LWS_CALLBACK_CLIENT_CLOSED:
		finished = 1;
		break;

	default:
		break;
	}
	return 0;
}

static const struct lws_protocols protocols[] = {
	{ "bcsvr-count", callback, 0, 65536, 0, NULL, 0 },
	{ NULL, NULL, 0, 0, 0, NULL, 0 },
};

int main(int argc, char **argv)
{
	if (argc != 3) {
		fprintf(stderr, "usage: %s PORT KEY\n", argv[0]);
		return 64;
	}
	key = argv[2];
	lws_set_log_level(LLL_ERR, NULL);

	struct lws_context_creation_info info;
	memset(&info, 0, sizeof info);
	info.port = CONTEXT_PORT_NO_LISTEN;
	info.protocols = protocols;
	info.gid = -1;
	info.uid = -1;
	struct lws_context *context = lws_create_context(&info);
	if (!context) {
		fprintf(stderr, "lws_count: lws_create_context failed\n");
		return 1;
	}

	struct lws_client_connect_info connection;
	memset(&connection, 0, sizeof connection);
	connection.context = context;
	connection.address = "127.0.0.1";
	connection.port = atoi(argv[1]);
	connection.path = "/";
	connection.host = "127.0.0.1";
	connection.origin = "127.0.0.1";
	connection.protocol = NULL;                     /* no Sec-WebSocket-Protocol: bcsvr has none */
	connection.local_protocol_name = "bcsvr-count"; /* ... but our callback handles the connection */
	connection.ssl_connection = 0;
	if (!lws_client_connect_via_info(&connection)) {
		fprintf(stderr, "lws_count: cannot start connecting to 127.0.0.1:%s\n", argv[1]);
		lws_context_destroy(context);
		return 1;
	}
	while (!finished && lws_service(context, 0) >= 0)
		;
	lws_context_destroy(context);

	fprintf(stderr, "messages %ld%s\n", messages, ended ? "" : " (closed before the live ended)");
	free(message);
	return ended ? 0 : 1;
}
