// SPDX-License-Identifier: MIT
/*
 * hcclt_trace: record hcclthread tracepoints in a private tracefs instance
 * (raw binary records with typed fields through libtraceevent:
 * hcclt_trace_rec_*(), used by hcclthread-trace's command line,
 * hcclt_trace_cli.c, and by libhcclthread's aclprofStart/aclprofStop), or
 * read ftrace text (hcclt_trace_convert()), and write Chrome/Perfetto
 * trace JSON.
 *
 * Rows: pid 1 "hcclthread streams" has one row (tid) per stream with one
 * complete event ("ph":"X") per task, from task_start to task_complete;
 * pid 2 "host calls" has one row per calling task with instant events for
 * acquire and submit. A flow ("ph":"s" -> "ph":"f") goes from each notify
 * record to the wait it released; for a channel record, from the
 * recording rank's stream to the peer rank's wait (cat "channel"), on
 * whichever devices the two run. Both inputs are described in
 * tools/trace/FORMAT; every field is kept as an arg, by name, so extra
 * fields and field order need no converter change.
 */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <event-parse.h>
#include <tracefs.h>

#include "hcclt_trace.h"
#include "hcclt_utf8.h"

#define MAXF	24	/* fields kept per event */
#define KEYLEN	32
#define VALLEN	64

struct field {
	char k[KEYLEN];
	char v[VALLEN];
};

struct ev {
	double ts;		/* microseconds */
	int hpid;		/* pid of the task that hit the tracepoint */
	char comm[32];
	char name[32];		/* event name without system prefix */
	int nf;
	struct field f[MAXF];
};

enum { OP_OTHER, OP_RECORD, OP_WAIT };

struct task {
	int tid;		/* row of its stream */
	int op;
	int chan;		/* a channel record or wait */
	char label[48];		/* box name of other ops: "write 64.0 MiB" */
	double start, end;
	int done;
	char seq[24];
	char key[4 * VALLEN + 8];	/* notify it sets (record) or consumes (wait) */
	char args[512];		/* JSON object body */
	char status[24];
};

struct stream {
	char id[3 * VALLEN];	/* row key: dev:slot:stream, or stream */
	char label[3 * VALLEN + 32];
	int tid;
	int *open;		/* FIFO of started, not completed tasks */
	int nopen, capopen, headopen;
};

struct inst {
	double ts;
	double dur;		/* box: its length (microseconds); else < 0 */
	int pid, tid;
	char name[80];
	char args[512];
};

struct pend {
	char key[4 * VALLEN + 8];
	int task;
};

/* Open-addressing map from a key string to an entry index. */
struct strmap {
	int *slot;		/* entry index + 1; 0 = empty */
	unsigned int cap;	/* power of two */
	unsigned int n;
};

struct conv {
	struct strmap streammap;	/* stream key -> streams[] */
	struct strmap pendmap;		/* notify key -> pend[] */
	struct task *tasks;
	int ntasks, captasks;
	struct stream *streams;
	int nstreams, capstreams;
	struct inst *insts;
	int ninsts, capinsts;
	int (*flows)[2];
	int nflows, capflows;
	struct pend *pend;
	int npend, cappend;
	char (*oprows)[2 * VALLEN];	/* "dev:comm" of each operator row */
	int noprows, capoprows;
	int *hosts;		/* host pids seen */
	int nhosts, caphosts;
	char hostname[64][32];
	double last_ts;
	const char *tool;	/* otherData.tool of the JSON */
};

#define GROW(arr, n, cap) do {						\
	if ((n) == (cap)) {						\
		int nc_ = (cap) ? (cap) * 2 : 64;			\
		void *p_ = realloc((arr), (size_t)nc_ * sizeof(*(arr)));\
		if (!p_)						\
			return -ENOMEM;					\
		(arr) = p_;						\
		(cap) = nc_;						\
	}								\
} while (0)

/* Bounded string copy, always NUL-terminated. */
static void scpy(char *d, size_t n, const char *s)
{
	size_t l = strnlen(s, n - 1);

	memcpy(d, s, l);
	d[l] = 0;
}

static const char *fget(const struct ev *e, const char *k)
{
	int i;

	for (i = 0; i < e->nf; i++)
		if (!strcmp(e->f[i].k, k))
			return e->f[i].v;
	return NULL;
}

/* First present key of a NULL-terminated list. */
static const char *fany(const struct ev *e, const char *const *keys)
{
	const char *v;

	for (; *keys; keys++) {
		v = fget(e, *keys);
		if (v)
			return v;
	}
	return NULL;
}

static const char *const K_STREAM[] = { "stream", "stream_id", "sid", NULL };
static const char *const K_SEQ[] = { "seq", "seqno", NULL };
static const char *const K_IDX[] = { "idx", "notify_idx", "index", NULL };
static const char *const K_NOTIFY[] = { "notify_slot", "notify", "notify_id",
					NULL };
static const char *const K_DST[] = { "dst_stream", "dst", NULL };
static const char *const K_STATUS[] = { "status", "ret", "err", "error",
					NULL };

/* A JSON number as RFC 8259 writes it: -?(0|[1-9][0-9]*)(.[0-9]+)? */
static int is_num(const char *s)
{
	if (*s == '-')
		s++;
	if (*s == '0')
		s++;
	else if (*s >= '1' && *s <= '9')
		while (*s >= '0' && *s <= '9')
			s++;
	else
		return 0;
	if (*s == '.') {
		s++;
		if (*s < '0' || *s > '9')
			return 0;
		while (*s >= '0' && *s <= '9')
			s++;
	}
	return !*s;
}

/*
 * Append "k":v (numbers of up to 15 characters bare, the rest as strings)
 * to a JSON body; a field that does not fit whole is left out, so that the
 * body stays valid JSON.
 */
static void args_add(char *buf, size_t len, const char *k, const char *v)
{
	size_t o = strlen(buf);
	const char *q = is_num(v) && strlen(v) < 16 ? "" : "\"";
	int w = snprintf(NULL, 0, "%s\"%s\":%s%s%s", o ? "," : "", k, q, v, q);

	if (w < 0 || (size_t)w >= len - o)
		return;
	snprintf(buf + o, len - o, "%s\"%s\":%s%s%s", o ? "," : "", k, q, v,
		 q);
}

static void args_all(char *buf, size_t len, const struct ev *e)
{
	int i;

	for (i = 0; i < e->nf; i++)
		args_add(buf, len, e->f[i].k, e->f[i].v);
}

/*
 * Keep only what is safe inside a JSON string without escaping: no quote,
 * backslash or control character, and valid UTF-8 (the kernel cuts a comm
 * at 15 bytes, maybe inside a character); each offending byte becomes '_'.
 */
static void sanitize(char *s)
{
	size_t n = strlen(s), l;

	while (*s) {
		l = hcclt_utf8_len((const unsigned char *)s, n);
		if (l > 1) {
			s += l;
			n -= l;
			continue;
		}
		if (!l || *s == '"' || *s == '\\' || (unsigned char)*s < 0x20)
			*s = '_';
		s++;
		n--;
	}
}

/*
 * Set @e's name from a tracepoint name, with or without the
 * "hcclthread_"/"hcclt_" prefix; 0 when it is not one of ours.
 */
static int set_name(struct ev *e, const char *name)
{
	if (!strncmp(name, "hcclthread_", 11))
		name += 11;
	else if (!strncmp(name, "hcclthread:", 11))
		name += 11;
	else if (!strncmp(name, "hcclt_", 6))
		name += 6;
	if (strcmp(name, "acquire") && strcmp(name, "submit") &&
	    strcmp(name, "task_start") && strcmp(name, "task_complete") &&
	    strcmp(name, "wait_timeout") && strcmp(name, "copy") &&
	    strcmp(name, "op"))
		return 0;
	scpy(e->name, sizeof(e->name), name);
	return 1;
}

/*
 * Parse one line of the ftrace "trace" file:
 *   <comm>-<pid> [<cpu>] <flags> <secs.usecs>: <event>: k=v k=v ...
 * The flags column is optional. Returns 1 for an event, 0 for anything
 * else (comments, other systems), -1 for a broken hcclthread line.
 */
static int parse_line(char *line, struct ev *e)
{
	char *br, *p, *tsend, *name, *nend, *dash, *tok, *save;
	double secs;

	memset(e, 0, sizeof(*e));
	if (line[0] == '#')
		return 0;
	br = strstr(line, "] ");
	if (!br)
		return 0;
	/* comm-pid is the text before " [cpu]". */
	p = br;
	while (p > line && *p != '[')
		p--;
	if (p == line)
		return 0;
	*p = 0;
	dash = strrchr(line, '-');
	if (dash) {
		char *c = line;

		*dash = 0;
		while (*c == ' ')
			c++;
		scpy(e->comm, sizeof(e->comm), c);
		e->hpid = atoi(dash + 1);
	}
	/* Timestamp: first token after ']' ending in ':' that is a number. */
	p = br + 1;
	for (;;) {
		while (*p == ' ')
			p++;
		if (!*p)
			return 0;
		tsend = p + strcspn(p, " ");
		if (tsend > p && tsend[-1] == ':') {
			char *end;

			secs = strtod(p, &end);
			if (end == tsend - 1)
				break;
		}
		p = tsend;
	}
	e->ts = secs * 1e6;
	name = tsend;
	while (*name == ' ')
		name++;
	nend = strstr(name, ": ");
	if (nend) {
		*nend = 0;
		p = nend + 1;
	} else {
		/* An event without fields: nothing follows its name. */
		nend = name + strlen(name);
		p = nend;
		while (nend > name && (nend[-1] == '\n' || nend[-1] == ':'))
			nend--;
		*nend = 0;
	}
	if (!set_name(e, name))
		return 0;
	for (tok = strtok_r(p, " \t\n", &save); tok;
	     tok = strtok_r(NULL, " \t\n", &save)) {
		char *eq = strchr(tok, '=');

		if (!eq || eq == tok || e->nf == MAXF)
			continue;
		*eq = 0;
		scpy(e->f[e->nf].k, KEYLEN, tok);
		scpy(e->f[e->nf].v, VALLEN, eq + 1);
		/* Strip a trailing comma of "k=v, k=v" styles. */
		{
			size_t l = strlen(e->f[e->nf].v);

			if (l && e->f[e->nf].v[l - 1] == ',')
				e->f[e->nf].v[l - 1] = 0;
		}
		sanitize(e->f[e->nf].k);
		sanitize(e->f[e->nf].v);
		e->nf++;
	}
	sanitize(e->comm);
	return 1;
}

static unsigned int hash_str(const char *s)
{
	unsigned int h = 2166136261u;

	for (; *s; s++)
		h = (h ^ (unsigned char)*s) * 16777619u;
	return h;
}

typedef const char *(*keyof_fn)(const struct conv *c, int idx);

static int map_find(const struct strmap *m, const char *key, keyof_fn keyof,
		    const struct conv *c)
{
	unsigned int h;

	if (!m->cap)
		return -1;
	for (h = hash_str(key) & (m->cap - 1); m->slot[h];
	     h = (h + 1) & (m->cap - 1))
		if (!strcmp(keyof(c, m->slot[h] - 1), key))
			return m->slot[h] - 1;
	return -1;
}

static void map_put(struct strmap *m, const char *key, int idx)
{
	unsigned int h;

	for (h = hash_str(key) & (m->cap - 1); m->slot[h];
	     h = (h + 1) & (m->cap - 1))
		;
	m->slot[h] = idx + 1;
	m->n++;
}

static int map_add(struct strmap *m, const char *key, int idx, keyof_fn keyof,
		   const struct conv *c)
{
	if ((m->n + 1) * 2 > m->cap) {
		struct strmap nm = { NULL, m->cap ? m->cap * 2 : 256, 0 };
		unsigned int i;

		nm.slot = calloc(nm.cap, sizeof(*nm.slot));
		if (!nm.slot)
			return -ENOMEM;
		for (i = 0; i < m->cap; i++)
			if (m->slot[i])
				map_put(&nm, keyof(c, m->slot[i] - 1),
					m->slot[i] - 1);
		free(m->slot);
		*m = nm;
	}
	map_put(m, key, idx);
	return 0;
}

static const char *stream_key(const struct conv *c, int idx)
{
	return c->streams[idx].id;
}

static const char *pend_key(const struct conv *c, int idx)
{
	return c->pend[idx].key;
}

static int stream_get(struct conv *c, const struct ev *e, const char *sid)
{
	const char *dev = fget(e, "dev"), *slot = fget(e, "slot");
	char id[3 * VALLEN];
	int i;

	/*
	 * Stream ids are per file: two processes may both have stream 0x..1.
	 * The device and pool slot tell them apart.
	 */
	snprintf(id, sizeof(id), "%s:%s:%s", dev ? dev : "", slot ? slot : "",
		 sid);
	i = map_find(&c->streammap, id, stream_key, c);
	if (i >= 0)
		return i;
	i = c->nstreams;
	GROW(c->streams, c->nstreams, c->capstreams);
	memset(&c->streams[i], 0, sizeof(c->streams[i]));
	scpy(c->streams[i].id, sizeof(c->streams[i].id), id);
	if (slot)
		snprintf(c->streams[i].label, sizeof(c->streams[i].label),
			 "stream %s (dev %s slot %s)", sid, dev ? dev : "?",
			 slot);
	else
		snprintf(c->streams[i].label, sizeof(c->streams[i].label),
			 "stream %s", sid);
	c->streams[i].tid = i + 1;
	c->nstreams++;
	if (map_add(&c->streammap, c->streams[i].id, i, stream_key, c))
		return -ENOMEM;
	return i;
}

static int stream_push(struct stream *s, int task)
{
	if (s->headopen && s->headopen == s->nopen) {
		s->headopen = 0;
		s->nopen = 0;
	}
	GROW(s->open, s->nopen, s->capopen);
	s->open[s->nopen++] = task;
	return 0;
}

static int op_of(const struct ev *e)
{
	const char *op = fget(e, "op");

	if (!op)
		return OP_OTHER;
	if (!strcmp(op, "record") || !strcmp(op, "RECORD") ||
	    !strcmp(op, "1") || !strcmp(op, "notify_record"))
		return OP_RECORD;
	if (!strcmp(op, "wait") || !strcmp(op, "WAIT") ||
	    !strcmp(op, "2") || !strcmp(op, "notify_wait"))
		return OP_WAIT;
	if (!strcmp(op, "channel_record") || !strcmp(op, "3"))
		return OP_RECORD;
	if (!strcmp(op, "channel_wait") || !strcmp(op, "4"))
		return OP_WAIT;
	return OP_OTHER;
}

/* A channel task (its notify is a channel's: arrows across ranks)? */
static int is_chan(const struct ev *e)
{
	const char *op = fget(e, "op");

	return op && (!strncmp(op, "channel_", 8) || !strcmp(op, "3") ||
		      !strcmp(op, "4"));
}

/*
 * Identity of the notify a task sets or consumes. Preferred: a device-wide
 * notify number (notify=, the pool slot), the same in the record and in the
 * wait, with the owner's id and the index when the driver gives them: a
 * slot is reused once its thread dies, while a record queued before may
 * still name the dead notify. Fallback: record dst_stream + idx == wait
 * stream + idx.
 */
static void notify_key(const struct ev *e, int op, char *key, size_t len)
{
	const char *n = fany(e, K_NOTIFY), *i = fany(e, K_IDX), *s;
	const char *dev = fget(e, "notify_dev"), *owner = fget(e, "notify_owner");

	/* The notify's device: a channel record's is the peer's (uAPI 1.4). */
	if (!dev)
		dev = fget(e, "dev");
	key[0] = 0;
	if (n) {
		snprintf(key, len, "n:%s:%s:%s:%s", dev ? dev : "", n,
			 owner ? owner : "", i ? i : "");
		return;
	}
	s = op == OP_RECORD ? fany(e, K_DST) : fany(e, K_STREAM);
	if (s && i)
		snprintf(key, len, "s:%s:%s", s, i);
}

static int host_tid(struct conv *c, const struct ev *e)
{
	int i;

	for (i = 0; i < c->nhosts; i++)
		if (c->hosts[i] == e->hpid)
			return e->hpid;
	GROW(c->hosts, c->nhosts, c->caphosts);
	if (c->nhosts < 64)
		scpy(c->hostname[c->nhosts], 32, e->comm);
	c->hosts[c->nhosts++] = e->hpid;
	return e->hpid;
}

static int add_inst(struct conv *c, const struct ev *e, int pid, int tid,
		    const char *name)
{
	struct inst *in;

	GROW(c->insts, c->ninsts, c->capinsts);
	in = &c->insts[c->ninsts++];
	memset(in, 0, sizeof(*in));
	in->ts = e->ts;
	in->dur = -1;
	in->pid = pid;
	in->tid = tid;
	scpy(in->name, sizeof(in->name), name);
	args_all(in->args, sizeof(in->args), e);
	return 0;
}

static int pend_set(struct conv *c, const char *key, int task)
{
	int i = map_find(&c->pendmap, key, pend_key, c);

	if (i >= 0) {
		/* Binary notify: a second record changes nothing. */
		if (c->pend[i].task < 0)
			c->pend[i].task = task;
		return 0;
	}
	GROW(c->pend, c->npend, c->cappend);
	scpy(c->pend[c->npend].key, sizeof(c->pend[0].key), key);
	c->pend[c->npend].task = task;
	c->npend++;
	return map_add(&c->pendmap, c->pend[c->npend - 1].key, c->npend - 1,
		       pend_key, c);
}

static int pend_take(struct conv *c, const char *key)
{
	int i = map_find(&c->pendmap, key, pend_key, c), t;

	if (i < 0)
		return -1;
	t = c->pend[i].task;
	c->pend[i].task = -1;
	return t;
}

/* "64.0 MiB", "4.0 KiB", "17 B" */
static void fmt_bytes(char *buf, size_t len, unsigned long long b)
{
	if (b >= 1024ull * 1024 * 1024)
		snprintf(buf, len, "%.1f GiB", b / (1024.0 * 1024 * 1024));
	else if (b >= 1024ull * 1024)
		snprintf(buf, len, "%.1f MiB", b / (1024.0 * 1024));
	else if (b >= 1024)
		snprintf(buf, len, "%.1f KiB", b / 1024.0);
	else
		snprintf(buf, len, "%llu B", b);
}

/*
 * A copy event (the copy engine finished a data task): the open task of
 * its stream with its seqno gets the byte count as an arg and in its name.
 */
static void copy_event(struct conv *c, struct stream *s, const struct ev *e)
{
	const char *seq = fany(e, K_SEQ), *bytes = fget(e, "bytes");
	const char *op = fget(e, "op");
	char sz[32];
	int k;

	if (!seq || !bytes)
		return;
	for (k = s->headopen; k < s->nopen; k++) {
		struct task *t = &c->tasks[s->open[k]];

		if (strcmp(t->seq, seq))
			continue;
		args_add(t->args, sizeof(t->args), "bytes", bytes);
		fmt_bytes(sz, sizeof(sz), strtoull(bytes, NULL, 10));
		snprintf(t->label, sizeof(t->label), "%s %s",
			 op ? op : "copy", sz);
		return;
	}
}

/* Row (tid, from 1) of the operators of communicator dev:comm. */
static int op_row(struct conv *c, const struct ev *e)
{
	const char *dev = fget(e, "dev"), *comm = fget(e, "comm");
	char key[2 * VALLEN];
	int i;

	snprintf(key, sizeof(key), "%s:%s", dev ? dev : "", comm ? comm : "");
	for (i = 0; i < c->noprows; i++)
		if (!strcmp(c->oprows[i], key))
			return i + 1;
	GROW(c->oprows, c->noprows, c->capoprows);
	scpy(c->oprows[c->noprows], sizeof(c->oprows[0]), key);
	return ++c->noprows;
}

/*
 * An op event (DRM_IOCTL_HCCLT_OP_INFO): on the row of its communicator
 * (pid 3), an instant for a registration, a box ending at the event for a
 * kernel report ("kernel NAME") and for an issue report ("#INDEX TAG"),
 * dur_ns long.
 */
static int op_event(struct conv *c, const struct ev *e,
		    struct hcclt_trace_stats *st)
{
	const char *phase = fget(e, "phase"), *tag = fget(e, "tag");
	const char *kern = fget(e, "kernel"), *idx = fget(e, "index");
	const char *dur = fget(e, "dur_ns");
	char name[80];
	struct inst *in;
	int row = op_row(c, e), ph;

	if (row < 0)
		return row;
	ph = phase ? atoi(phase) : 0;
	if (ph == 2)
		snprintf(name, sizeof(name), "kernel %s", kern ? kern : "");
	else
		snprintf(name, sizeof(name), "%s #%s %s",
			 ph == 1 ? "register" : "op", idx ? idx : "?",
			 tag ? tag : "");
	sanitize(name);
	if (add_inst(c, e, 3, row, name))
		return -ENOMEM;
	in = &c->insts[c->ninsts - 1];
	if (ph == 2 || ph == 3) {
		in->dur = dur ? strtod(dur, NULL) / 1000.0 : 0;
		if (in->dur > in->ts)
			in->dur = in->ts;
		in->ts -= in->dur;
		st->ops++;
	}
	return 0;
}

static int handle_event(struct conv *c, const struct ev *e,
			struct hcclt_trace_stats *st)
{
	const char *sid = fany(e, K_STREAM), *seq;
	struct stream *s;
	struct task *t;
	int si, ti, op;

	if (e->ts > c->last_ts)
		c->last_ts = e->ts;
	if (!strcmp(e->name, "acquire"))
		return add_inst(c, e, 2, host_tid(c, e), "acquire");
	if (!strcmp(e->name, "op"))
		return op_event(c, e, st);
	if (!strcmp(e->name, "submit")) {
		if (add_inst(c, e, 2, host_tid(c, e), "submit"))
			return -ENOMEM;
		return 0;
	}
	if (!sid)
		return -EINVAL;
	si = stream_get(c, e, sid);
	if (si < 0)
		return si;
	s = &c->streams[si];
	if (!strcmp(e->name, "wait_timeout")) {
		st->timeouts++;
		return add_inst(c, e, 1, s->tid, "wait timeout");
	}
	if (!strcmp(e->name, "copy")) {
		copy_event(c, s, e);
		return 0;
	}
	op = op_of(e);
	if (!strcmp(e->name, "task_start")) {
		GROW(c->tasks, c->ntasks, c->captasks);
		ti = c->ntasks++;
		t = &c->tasks[ti];
		memset(t, 0, sizeof(*t));
		t->tid = s->tid;
		t->op = op;
		t->chan = is_chan(e);
		if (op == OP_OTHER && fget(e, "op"))
			scpy(t->label, sizeof(t->label), fget(e, "op"));
		t->start = e->ts;
		scpy(t->seq, sizeof(t->seq), fany(e, K_SEQ) ? fany(e, K_SEQ) : "");
		notify_key(e, op, t->key, sizeof(t->key));
		args_all(t->args, sizeof(t->args), e);
		/* The flag is set when the record runs: remember it now. */
		if (op == OP_RECORD && t->key[0] && pend_set(c, t->key, ti))
			return -ENOMEM;
		return stream_push(s, ti);
	}
	/*
	 * task_complete: tasks of a stream complete in order. With seqnos,
	 * open tasks before the one completing lost their task_complete
	 * (ftrace dropped it): close them here, marked "lost".
	 */
	seq = fany(e, K_SEQ);
	if (seq && s->headopen < s->nopen &&
	    strcmp(c->tasks[s->open[s->headopen]].seq, seq)) {
		int k;

		for (k = s->headopen; k < s->nopen; k++)
			if (!strcmp(c->tasks[s->open[k]].seq, seq))
				break;
		while (k < s->nopen && s->headopen < k) {
			t = &c->tasks[s->open[s->headopen++]];
			t->end = e->ts;
			t->done = 1;
			scpy(t->status, sizeof(t->status), "lost");
		}
	}
	if (s->headopen == s->nopen ||
	    (seq && strcmp(c->tasks[s->open[s->headopen]].seq, seq))) {
		/* Started before the trace: a task of zero length. */
		GROW(c->tasks, c->ntasks, c->captasks);
		ti = c->ntasks++;
		t = &c->tasks[ti];
		memset(t, 0, sizeof(*t));
		t->tid = s->tid;
		t->op = op;
		t->chan = is_chan(e);
		if (op == OP_OTHER && fget(e, "op"))
			scpy(t->label, sizeof(t->label), fget(e, "op"));
		t->start = e->ts;
		scpy(t->seq, sizeof(t->seq), seq ? seq : "");
		notify_key(e, op, t->key, sizeof(t->key));
		args_all(t->args, sizeof(t->args), e);
		if (op == OP_RECORD && t->key[0] && pend_set(c, t->key, ti))
			return -ENOMEM;
	} else {
		ti = s->open[s->headopen++];
		t = &c->tasks[ti];
		if (!t->key[0])
			notify_key(e, t->op ? t->op : op, t->key,
				   sizeof(t->key));
	}
	t->end = e->ts;
	t->done = 1;
	if (fany(e, K_STATUS))
		scpy(t->status, sizeof(t->status), fany(e, K_STATUS));
	if (t->op == OP_OTHER)
		t->op = op;
	if (t->op == OP_WAIT && t->key[0] &&
	    (!t->status[0] || !strcmp(t->status, "0"))) {
		int src = pend_take(c, t->key);

		if (src >= 0) {
			GROW(c->flows, c->nflows, c->capflows);
			c->flows[c->nflows][0] = src;
			c->flows[c->nflows][1] = ti;
			c->nflows++;
		}
	}
	return 0;
}

static void write_json(struct conv *c, FILE *out, struct hcclt_trace_stats *st)
{
	const char *sep = "";
	int i;

	fprintf(out, "{\"displayTimeUnit\":\"ns\",\"otherData\":{\"tool\":"
		"\"%s\"},\"traceEvents\":[\n",
		c->tool ? c->tool : "hcclthread-trace");
	fprintf(out, "{\"ph\":\"M\",\"name\":\"process_name\",\"pid\":1,"
		"\"tid\":0,\"args\":{\"name\":\"hcclthread streams\"}}");
	fprintf(out, ",\n{\"ph\":\"M\",\"name\":\"process_sort_index\","
		"\"pid\":1,\"tid\":0,\"args\":{\"sort_index\":1}}");
	fprintf(out, ",\n{\"ph\":\"M\",\"name\":\"process_name\",\"pid\":2,"
		"\"tid\":0,\"args\":{\"name\":\"host calls\"}}");
	fprintf(out, ",\n{\"ph\":\"M\",\"name\":\"process_sort_index\","
		"\"pid\":2,\"tid\":0,\"args\":{\"sort_index\":2}}");
	sep = ",\n";
	if (c->noprows) {
		fprintf(out, ",\n{\"ph\":\"M\",\"name\":\"process_name\","
			"\"pid\":3,\"tid\":0,\"args\":{\"name\":"
			"\"HCCL operators\"}}");
		fprintf(out, ",\n{\"ph\":\"M\",\"name\":"
			"\"process_sort_index\",\"pid\":3,\"tid\":0,"
			"\"args\":{\"sort_index\":3}}");
	}
	for (i = 0; i < c->noprows; i++)
		fprintf(out, "%s{\"ph\":\"M\",\"name\":\"thread_name\","
			"\"pid\":3,\"tid\":%d,\"args\":{\"name\":"
			"\"comm %s\"}}", sep, i + 1, c->oprows[i]);
	for (i = 0; i < c->nstreams; i++) {
		fprintf(out, "%s{\"ph\":\"M\",\"name\":\"thread_name\","
			"\"pid\":1,\"tid\":%d,\"args\":{\"name\":\"%s\"}}",
			sep, c->streams[i].tid, c->streams[i].label);
		fprintf(out, "%s{\"ph\":\"M\",\"name\":\"thread_sort_index\","
			"\"pid\":1,\"tid\":%d,\"args\":{\"sort_index\":%d}}",
			sep, c->streams[i].tid, c->streams[i].tid);
	}
	for (i = 0; i < c->nhosts; i++)
		fprintf(out, "%s{\"ph\":\"M\",\"name\":\"thread_name\","
			"\"pid\":2,\"tid\":%d,\"args\":{\"name\":\"%s-%d\"}}",
			sep, c->hosts[i], i < 64 ? c->hostname[i] : "task",
			c->hosts[i]);
	for (i = 0; i < c->ntasks; i++) {
		struct task *t = &c->tasks[i];
		double end = t->done ? t->end : c->last_ts;
		double dur = end - t->start;
		const char *name = t->op == OP_RECORD ?
				   (t->chan ? "channel record" : "record") :
				   t->op == OP_WAIT ?
				   (t->chan ? "channel wait" : "wait") :
				   t->label[0] ? t->label : "task";

		/* Keep every box visible and able to hold flow ends. */
		if (dur < 0.002)
			dur = 0.002;
		if (!t->done)
			st->unfinished++;
		st->tasks++;
		fprintf(out, "%s{\"ph\":\"X\",\"name\":\"%s\",\"cat\":\"task\","
			"\"pid\":1,\"tid\":%d,\"ts\":%.3f,\"dur\":%.3f,"
			"\"args\":{%s%s%s%s%s}}", sep, name, t->tid, t->start,
			dur, t->args, t->status[0] ? ",\"end_status\":\"" : "",
			t->status, t->status[0] ? "\"" : "",
			t->done ? "" : ",\"unfinished\":1");
	}
	for (i = 0; i < c->ninsts; i++) {
		struct inst *in = &c->insts[i];

		if (in->dur >= 0) {
			fprintf(out, "%s{\"ph\":\"X\",\"name\":\"%s\","
				"\"cat\":\"op\",\"pid\":%d,\"tid\":%d,"
				"\"ts\":%.3f,\"dur\":%.3f,\"args\":{%s}}",
				sep, in->name, in->pid, in->tid, in->ts,
				in->dur < 0.002 ? 0.002 : in->dur, in->args);
			continue;
		}
		fprintf(out, "%s{\"ph\":\"i\",\"s\":\"t\",\"name\":\"%s\","
			"\"cat\":\"%s\",\"pid\":%d,\"tid\":%d,\"ts\":%.3f,"
			"\"args\":{%s}}", sep, in->name,
			in->pid == 1 ? "error" : "call", in->pid, in->tid,
			in->ts, in->args);
	}
	for (i = 0; i < c->nflows; i++) {
		struct task *a = &c->tasks[c->flows[i][0]];
		struct task *b = &c->tasks[c->flows[i][1]];
		double ae = a->done ? a->end : c->last_ts;
		const char *kind;
		double as, bs;

		if (ae - a->start < 0.002)
			ae = a->start + 0.002;
		/* Inside both boxes so that the arrow binds to them. */
		as = a->start + ((ae - a->start) / 2 < 0.001 ?
				   (ae - a->start) / 2 : 0.001);
		bs = b->end - 0.001;
		if (bs < b->start + 0.001)
			bs = b->start + 0.001;
		kind = a->chan ? "channel" : "notify";
		if (a->chan)
			st->chan_flows++;
		fprintf(out, "%s{\"ph\":\"s\",\"name\":\"%s\",\"cat\":"
			"\"%s\",\"id\":%d,\"pid\":1,\"tid\":%d,\"ts\":%.3f}",
			sep, kind, kind, i + 1, a->tid, as);
		fprintf(out, "%s{\"ph\":\"f\",\"bp\":\"e\",\"name\":\"%s\","
			"\"cat\":\"%s\",\"id\":%d,\"pid\":1,\"tid\":%d,"
			"\"ts\":%.3f}", sep, kind, kind, i + 1, b->tid, bs);
	}
	fprintf(out, "\n]}\n");
	st->flows = (unsigned long)c->nflows;
	st->streams = (unsigned long)c->nstreams;
}

static void conv_free(struct conv *c)
{
	int i;

	for (i = 0; i < c->nstreams; i++)
		free(c->streams[i].open);
	free(c->streams);
	free(c->tasks);
	free(c->insts);
	free(c->flows);
	free(c->pend);
	free(c->hosts);
	free(c->oprows);
	free(c->streammap.slot);
	free(c->pendmap.slot);
}

/* One hcclthread event into the converter; -EINVAL ones are counted. */
static int conv_event(struct conv *c, const struct ev *e,
		      struct hcclt_trace_stats *st)
{
	int r;

	st->lines++;
	r = handle_event(c, e, st);
	if (r == -EINVAL) {
		st->bad++;
		r = 0;
	}
	return r;
}

static int conv_finish(struct conv *c, FILE *out, struct hcclt_trace_stats *st)
{
	write_json(c, out, st);
	if (fflush(out) || ferror(out))
		return -EIO;
	return 0;
}

int hcclt_trace_convert(FILE *in, FILE *out, struct hcclt_trace_stats *st)
{
	struct conv c;
	char line[4096];
	struct ev e;
	int ret = 0;

	memset(&c, 0, sizeof(c));
	memset(st, 0, sizeof(*st));
	while (fgets(line, sizeof(line), in)) {
		char *lost = strstr(line, "[LOST ");

		if (lost && line[0] != '#') {
			st->lost += strtoul(lost + 6, NULL, 10);
			continue;
		}
		if (parse_line(line, &e) <= 0)
			continue;
		ret = conv_event(&c, &e, st);
		if (ret)
			goto out;
	}
	ret = conv_finish(&c, out, st);
out:
	conv_free(&c);
	return ret;
}

/* ---- recording (libtracefs, libtraceevent) ------------------------ */

/* The u64 ids the driver prints in hex; renamed fields as it prints them. */
/* The names hcclt_show_op() prints (driver/hcclt_trace.h). */
static const char *op_name(unsigned long long v)
{
	static const char *const names[] = {
		[1] = "record", [2] = "wait", [3] = "channel_record",
		[4] = "channel_wait", [5] = "local_copy", [6] = "write",
		[7] = "read", [8] = "local_reduce", [9] = "write_reduce",
		[10] = "read_reduce", [11] = "kernel_launch",
		[12] = "event_record", [13] = "event_wait",
		[14] = "acl_notify_record", [15] = "acl_notify_wait",
		[16] = "event_reset",
		[64] = "in_fences",
	};

	return v < sizeof(names) / sizeof(names[0]) && names[v] ? names[v] :
	       "other";
}

static const char *const HEX_FIELDS[] = { "comm", "thread", "stream",
					  "handle", "owner", NULL };
static const char *const RENAME[][2] = {
	{ "owner", "notify_owner" }, { "idx", "notify_idx" },
	{ "nslot", "notify_slot" }, { "ndev", "notify_dev" }, { NULL, NULL },
};

struct rec_ctx {
	struct conv c;
	struct hcclt_trace_stats *st;
	struct tep_handle *tep;
	FILE *raw;		/* -r: the events as ftrace text, or NULL */
	uint64_t devmask;	/* devices whose events are kept; 0: all */
	int err;
};

static int in_list(const char *const *l, const char *s)
{
	for (; *l; l++)
		if (!strcmp(*l, s))
			return 1;
	return 0;
}

/* One raw record: typed fields of the event's format, no text parsing. */
static int on_record(struct tep_event *event, struct tep_record *rec,
		     int cpu, void *data)
{
	struct rec_ctx *rc = data;
	struct tep_format_field *f;
	unsigned long long val;
	const char *key;
	struct ev e;
	int i;

	(void)cpu;
	if (rec->missed_events > 0)
		rc->st->lost += (unsigned long)rec->missed_events;
	if (!event->system || strcmp(event->system, "hcclthread"))
		return 0;
	if (rc->devmask) {
		f = tep_find_field(event, "dev");
		if (f && !tep_read_number_field(f, rec->data, &val) &&
		    (val >= 64 || !(rc->devmask & (UINT64_C(1) << val))))
			return 0;
	}
	memset(&e, 0, sizeof(e));
	if (!set_name(&e, event->name))
		return 0;
	e.ts = (double)rec->ts / 1000.0;
	e.hpid = tep_data_pid(rc->tep, rec);
	scpy(e.comm, sizeof(e.comm), tep_data_comm_from_pid(rc->tep, e.hpid));
	sanitize(e.comm);
	for (f = event->format.fields; f && e.nf < MAXF; f = f->next) {
		/* A fixed char array (hcclt_op's tag, kernel): a string. */
		if ((f->flags & TEP_FIELD_IS_STRING) &&
		    !(f->flags & TEP_FIELD_IS_DYNAMIC) && f->size > 0) {
			size_t len = (size_t)f->size < VALLEN - 1 ?
				     (size_t)f->size : VALLEN - 1;

			scpy(e.f[e.nf].k, KEYLEN, f->name);
			memcpy(e.f[e.nf].v, (const char *)rec->data + f->offset,
			       len);
			e.f[e.nf].v[len] = 0;
			sanitize(e.f[e.nf].v);
			e.nf++;
			continue;
		}
		if (f->flags & (TEP_FIELD_IS_ARRAY | TEP_FIELD_IS_STRING |
				TEP_FIELD_IS_DYNAMIC))
			continue;
		if (tep_read_number_field(f, rec->data, &val))
			continue;
		key = f->name;
		for (i = 0; RENAME[i][0]; i++)
			if (!strcmp(key, RENAME[i][0]))
				key = RENAME[i][1];
		scpy(e.f[e.nf].k, KEYLEN, key);
		if (!strcmp(f->name, "op") && !strcmp(e.name, "acquire"))
			snprintf(e.f[e.nf].v, VALLEN, "%llu", val);
		else if (!strcmp(f->name, "op"))
			scpy(e.f[e.nf].v, VALLEN, op_name(val));
		else if (in_list(HEX_FIELDS, f->name))
			snprintf(e.f[e.nf].v, VALLEN, "0x%llx", val);
		else if (f->flags & TEP_FIELD_IS_SIGNED)
			snprintf(e.f[e.nf].v, VALLEN, "%lld",
				 f->size == 4 ? (long long)(int)val :
				 f->size == 2 ? (long long)(short)val :
				 f->size == 1 ? (long long)(signed char)val :
				 (long long)val);
		else
			snprintf(e.f[e.nf].v, VALLEN, "%llu", val);
		e.nf++;
	}
	if (rc->raw) {
		struct trace_seq sq;

		trace_seq_init(&sq);
		tep_print_event(rc->tep, &sq, rec, "%16s-%-7d [%03d] %6.1000d: %s: %s\n",
				TEP_PRINT_COMM, TEP_PRINT_PID, TEP_PRINT_CPU,
				TEP_PRINT_TIME, TEP_PRINT_NAME, TEP_PRINT_INFO);
		trace_seq_terminate(&sq);
		fputs(sq.buffer, rc->raw);
		trace_seq_destroy(&sq);
	}
	rc->err = conv_event(&rc->c, &e, rc->st);
	return rc->err ? 1 : 0;
}

/* ---- a recording of this process (hcclt_trace.h) ------------------ */

struct hcclt_trace_rec {
	struct tracefs_instance *ti;
	char name[64];
};

/* tracefs: /sys/kernel/tracing when it is there; NULL when none. */
static const char *tracing_dir(void)
{
	struct stat sb;

	if (!stat("/sys/kernel/tracing/events", &sb) && S_ISDIR(sb.st_mode))
		tracefs_set_tracing_dir("/sys/kernel/tracing");
	/* Else libtracefs finds tracefs, mounting it when it is not (root). */
	return tracefs_tracing_dir();
}

struct hcclt_trace_rec *hcclt_trace_rec_start(const char *name, long kb)
{
	struct hcclt_trace_rec *r;
	int err;

	if (!tracing_dir()) {
		errno = ENOENT;
		return NULL;
	}
	if (!tracefs_dir_exists(NULL, "events/hcclthread")) {
		errno = ENODEV;
		return NULL;
	}
	r = calloc(1, sizeof(*r));
	if (!r)
		return NULL;
	scpy(r->name, sizeof(r->name), name);
	/*
	 * A private instance, made here and by nobody else: the global
	 * buffer, and other tracers' instances, are never touched.
	 */
	errno = 0;
	r->ti = tracefs_instance_create(name);
	if (!r->ti || !tracefs_instance_is_new(r->ti)) {
		err = r->ti ? EEXIST : (errno ? errno : EACCES);
		tracefs_instance_free(r->ti);
		free(r);
		errno = err;
		return NULL;
	}
	tracefs_trace_off(r->ti);
	tracefs_instance_set_buffer_size(r->ti, (size_t)kb, -1);
	tracefs_instance_file_clear(r->ti, "trace");
	if (tracefs_event_enable(r->ti, "hcclthread", NULL)) {
		err = errno ? errno : EIO;
		hcclt_trace_rec_free(r);
		errno = err;
		return NULL;
	}
	tracefs_trace_on(r->ti);
	return r;
}

void hcclt_trace_rec_stop(struct hcclt_trace_rec *r)
{
	tracefs_trace_off(r->ti);
	tracefs_event_disable(r->ti, "hcclthread", NULL);
}

int hcclt_trace_rec_write(struct hcclt_trace_rec *r, FILE *out, FILE *raw,
			  uint64_t devmask, const char *tool,
			  struct hcclt_trace_stats *st)
{
	const char *const systems[] = { "hcclthread", NULL };
	struct rec_ctx rc;
	int ret = 0;

	memset(&rc, 0, sizeof(rc));
	memset(st, 0, sizeof(*st));
	rc.st = st;
	rc.raw = raw;
	rc.devmask = devmask;
	rc.c.tool = tool;
	rc.tep = tracefs_local_events_system(NULL, systems);
	if (!rc.tep)
		return errno ? -errno : -EIO;
	tracefs_load_cmdlines(NULL, rc.tep);
	if (tracefs_iterate_raw_events(rc.tep, r->ti, NULL, 0, on_record,
				       &rc) < 0 && !rc.err)
		ret = -EIO;
	if (!ret && rc.err)
		ret = rc.err;
	if (!ret)
		ret = conv_finish(&rc.c, out, st);
	conv_free(&rc.c);
	tep_free(rc.tep);
	return ret;
}

int hcclt_trace_rec_free(struct hcclt_trace_rec *r)
{
	int ret = 0;

	if (!r)
		return 0;
	if (tracefs_instance_destroy(r->ti))
		ret = errno ? -errno : -EIO;
	tracefs_instance_free(r->ti);
	free(r);
	return ret;
}

void hcclt_trace_rec_reap(const char *prefix)
{
	size_t plen = strlen(prefix);
	struct tracefs_instance *ti;
	char **names, *end;
	long pid;
	int i;

	if (!tracing_dir())
		return;
	names = tracefs_instances(NULL);
	for (i = 0; names && names[i]; i++) {
		if (strncmp(names[i], prefix, plen))
			continue;
		errno = 0;
		pid = strtol(names[i] + plen, &end, 10);
		/* Its process is gone: nobody will remove it. */
		if ((*end && *end != '-') || end == names[i] + plen ||
		    pid <= 0 || !kill((pid_t)pid, 0) || errno != ESRCH)
			continue;
		ti = tracefs_instance_alloc(NULL, names[i]);
		if (ti) {
			tracefs_instance_destroy(ti);
			tracefs_instance_free(ti);
		}
	}
	tracefs_list_free(names);
}
