// SPDX-License-Identifier: MIT
/*
 * hcclt-trace-check: validate a Chrome/Perfetto trace JSON file.
 *
 *   hcclt-trace-check [--json-only] [--min-tasks N] [--min-flows N]
 *                     [--min-streams N] FILE
 *
 * --json-only: only check that FILE is strict JSON (used for smi --json).
 *
 * Checks that FILE is strict JSON (RFC 8259), that its top level is an
 * object with a "traceEvents" array of objects each with a string "ph";
 * that every "X" event has a string name and numeric ts, dur (>= 0), pid
 * and tid; every "i" event name/ts/pid/tid; every "M" event a name and an
 * args object; that every flow start ("s") has exactly one finish ("f")
 * with the same id and the reverse, and that each flow end lies inside an
 * "X" event of its pid/tid (so a viewer binds the arrow to the boxes).
 * Exit 0 valid, 1 invalid (first problems on stderr), 2 usage/IO error.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "hcclt_utf8.h"

enum jt { J_NULL, J_BOOL, J_NUM, J_STR, J_ARR, J_OBJ };

struct jv {
	enum jt t;
	double num;
	char *str;		/* J_STR value */
	struct jv *kids;	/* J_ARR elements / J_OBJ values */
	char **keys;		/* J_OBJ keys */
	int n, cap;
};

struct parser {
	const char *s, *end;
	const char *err;
	long errpos;
	int depth;
};

static int perr(struct parser *p, const char *msg)
{
	if (!p->err) {
		p->err = msg;
		p->errpos = (long)(p->end - p->s);
	}
	return -1;
}

static void skip_ws(struct parser *p)
{
	while (p->s < p->end && (*p->s == ' ' || *p->s == '\t' ||
				 *p->s == '\n' || *p->s == '\r'))
		p->s++;
}

static int parse_value(struct parser *p, struct jv *v);

static int parse_string(struct parser *p, char **out)
{
	size_t cap = 16, n = 0;
	char *buf = malloc(cap);

	if (!buf)
		return perr(p, "out of memory");
	p->s++;		/* opening quote */
	while (p->s < p->end && *p->s != '"') {
		unsigned char ch = (unsigned char)*p->s;

		if (ch < 0x20) {
			free(buf);
			return perr(p, "control character in string");
		}
		if (ch >= 0x80) {
			/* RFC 8259 text is UTF-8: check, then take it whole. */
			size_t l = hcclt_utf8_len((const unsigned char *)p->s,
						  (size_t)(p->end - p->s));

			if (!l) {
				free(buf);
				return perr(p, "invalid UTF-8 in string");
			}
			/* The last byte is stored below, the others here. */
			if (n + l + 1 > cap) {
				char *nb = realloc(buf, cap = 2 * (n + l + 1));

				if (!nb) {
					free(buf);
					return perr(p, "out of memory");
				}
				buf = nb;
			}
			while (--l)
				buf[n++] = *p->s++;
			ch = (unsigned char)*p->s;
		}
		if (ch == '\\') {
			p->s++;
			if (p->s >= p->end)
				break;
			switch (*p->s) {
			case '"': case '\\': case '/': ch = (unsigned char)*p->s;
				break;
			case 'b': ch = '\b'; break;
			case 'f': ch = '\f'; break;
			case 'n': ch = '\n'; break;
			case 'r': ch = '\r'; break;
			case 't': ch = '\t'; break;
			case 'u': {
				int i;

				for (i = 1; i <= 4; i++) {
					char h = p->s + i < p->end ? p->s[i] : 0;

					if (!((h >= '0' && h <= '9') ||
					      (h >= 'a' && h <= 'f') ||
					      (h >= 'A' && h <= 'F'))) {
						free(buf);
						return perr(p, "bad \\u escape");
					}
				}
				p->s += 4;
				ch = '?';	/* value not needed */
				break;
			}
			default:
				free(buf);
				return perr(p, "bad escape in string");
			}
		}
		if (n + 2 > cap) {
			char *nb = realloc(buf, cap *= 2);

			if (!nb) {
				free(buf);
				return perr(p, "out of memory");
			}
			buf = nb;
		}
		buf[n++] = (char)ch;
		p->s++;
	}
	if (p->s >= p->end) {
		free(buf);
		return perr(p, "unterminated string");
	}
	p->s++;
	buf[n] = 0;
	*out = buf;
	return 0;
}

static int parse_number(struct parser *p, struct jv *v)
{
	const char *s = p->s;
	char tmp[64];
	size_t len;

	if (s < p->end && *s == '-')
		s++;
	if (s >= p->end || *s < '0' || *s > '9')
		return perr(p, "bad number");
	if (*s == '0' && s + 1 < p->end && s[1] >= '0' && s[1] <= '9')
		return perr(p, "leading zero in number");
	while (s < p->end && *s >= '0' && *s <= '9')
		s++;
	if (s < p->end && *s == '.') {
		s++;
		if (s >= p->end || *s < '0' || *s > '9')
			return perr(p, "bad fraction");
		while (s < p->end && *s >= '0' && *s <= '9')
			s++;
	}
	if (s < p->end && (*s == 'e' || *s == 'E')) {
		s++;
		if (s < p->end && (*s == '+' || *s == '-'))
			s++;
		if (s >= p->end || *s < '0' || *s > '9')
			return perr(p, "bad exponent");
		while (s < p->end && *s >= '0' && *s <= '9')
			s++;
	}
	len = (size_t)(s - p->s);
	if (len >= sizeof(tmp))
		return perr(p, "number too long");
	memcpy(tmp, p->s, len);
	tmp[len] = 0;
	v->t = J_NUM;
	v->num = strtod(tmp, NULL);
	p->s = s;
	return 0;
}

static int add_kid(struct parser *p, struct jv *v, char *key)
{
	if (v->n == v->cap) {
		int nc = v->cap ? v->cap * 2 : 8;
		struct jv *nk = realloc(v->kids, (size_t)nc * sizeof(*nk));
		char **nkeys;

		if (!nk)
			return perr(p, "out of memory");
		v->kids = nk;
		nkeys = realloc(v->keys, (size_t)nc * sizeof(*nkeys));
		if (!nkeys)
			return perr(p, "out of memory");
		v->keys = nkeys;
		v->cap = nc;
	}
	memset(&v->kids[v->n], 0, sizeof(v->kids[0]));
	v->keys[v->n] = key;
	v->n++;
	return 0;
}

static int parse_container(struct parser *p, struct jv *v, int obj)
{
	char close = obj ? '}' : ']';

	v->t = obj ? J_OBJ : J_ARR;
	if (++p->depth > 64)
		return perr(p, "nesting too deep");
	p->s++;
	skip_ws(p);
	if (p->s < p->end && *p->s == close) {
		p->s++;
		p->depth--;
		return 0;
	}
	for (;;) {
		char *key = NULL;

		skip_ws(p);
		if (obj) {
			if (p->s >= p->end || *p->s != '"')
				return perr(p, "expected object key");
			if (parse_string(p, &key))
				return -1;
			skip_ws(p);
			if (p->s >= p->end || *p->s != ':') {
				free(key);
				return perr(p, "expected ':'");
			}
			p->s++;
		}
		if (add_kid(p, v, key)) {
			free(key);
			return -1;
		}
		if (parse_value(p, &v->kids[v->n - 1]))
			return -1;
		skip_ws(p);
		if (p->s < p->end && *p->s == ',') {
			p->s++;
			continue;
		}
		if (p->s < p->end && *p->s == close) {
			p->s++;
			p->depth--;
			return 0;
		}
		return perr(p, obj ? "expected ',' or '}'" :
				     "expected ',' or ']'");
	}
}

static int parse_lit(struct parser *p, const char *lit)
{
	size_t l = strlen(lit);

	if ((size_t)(p->end - p->s) < l || memcmp(p->s, lit, l))
		return perr(p, "bad literal");
	p->s += l;
	return 0;
}

static int parse_value(struct parser *p, struct jv *v)
{
	skip_ws(p);
	if (p->s >= p->end)
		return perr(p, "unexpected end of input");
	switch (*p->s) {
	case '{':
		return parse_container(p, v, 1);
	case '[':
		return parse_container(p, v, 0);
	case '"':
		v->t = J_STR;
		return parse_string(p, &v->str);
	case 't':
		v->t = J_BOOL;
		return parse_lit(p, "true");
	case 'f':
		v->t = J_BOOL;
		return parse_lit(p, "false");
	case 'n':
		v->t = J_NULL;
		return parse_lit(p, "null");
	default:
		return parse_number(p, v);
	}
}

static void jv_free(struct jv *v)
{
	int i;

	for (i = 0; i < v->n; i++) {
		jv_free(&v->kids[i]);
		if (v->keys)
			free(v->keys[i]);
	}
	free(v->kids);
	free(v->keys);
	free(v->str);
}

static const struct jv *jget(const struct jv *o, const char *k)
{
	int i;

	if (o->t != J_OBJ)
		return NULL;
	for (i = 0; i < o->n; i++)
		if (o->keys[i] && !strcmp(o->keys[i], k))
			return &o->kids[i];
	return NULL;
}

static int errors;

static void bad(int idx, const char *fmt, const char *what)
{
	if (errors++ < 20) {
		fprintf(stderr, "hcclt-trace-check: traceEvents[%d]: ", idx);
		fprintf(stderr, fmt, what);
		fputc('\n', stderr);
	}
}

static int need(const struct jv *e, int idx, const char *k, enum jt t)
{
	const struct jv *v = jget(e, k);

	if (!v || v->t != t) {
		bad(idx, t == J_NUM ? "missing or non-numeric \"%s\"" :
			 t == J_STR ? "missing or non-string \"%s\"" :
				      "missing or wrong type \"%s\"", k);
		return 0;
	}
	return 1;
}

struct flowev {
	char id[64];
	int idx;		/* event index */
	int is_s;
};

struct xbox {
	double pid, tid, ts, end;
};

static int cmp_flow(const void *a, const void *b)
{
	const struct flowev *x = a, *y = b;
	int c = strcmp(x->id, y->id);

	return c ? c : x->idx - y->idx;
}

static int cmp_box(const void *a, const void *b)
{
	const struct xbox *x = a, *y = b;

	if (x->pid != y->pid)
		return x->pid < y->pid ? -1 : 1;
	if (x->tid != y->tid)
		return x->tid < y->tid ? -1 : 1;
	if (x->ts != y->ts)
		return x->ts < y->ts ? -1 : 1;
	return 0;
}

/* Flow ids may be numbers or strings; compare as text. */
static void id_text(const struct jv *v, char *buf, size_t len)
{
	if (v->t == J_NUM)
		snprintf(buf, len, "%.17g", v->num);
	else if (v->t == J_STR)
		snprintf(buf, len, "s:%s", v->str);
	else
		buf[0] = 0;
}

/*
 * Is @ts inside an X box of row (@pid, @tid)? @boxes is sorted; boxes of a
 * row rarely overlap, so looking back from the last box starting at or
 * before @ts finds it (a bounded number of steps covers nesting).
 */
static int inside_x(const struct xbox *boxes, int n, double pid, double tid,
		    double ts)
{
	struct xbox key = { pid, tid, ts, 0 };
	int lo = 0, hi = n, steps;

	while (lo < hi) {	/* first box > key */
		int mid = lo + (hi - lo) / 2;

		if (cmp_box(&boxes[mid], &key) <= 0)
			lo = mid + 1;
		else
			hi = mid;
	}
	for (steps = 0, lo--; lo >= 0 && steps < 64; lo--, steps++) {
		if (boxes[lo].pid != pid || boxes[lo].tid != tid)
			break;
		if (ts >= boxes[lo].ts && ts <= boxes[lo].end)
			return 1;
	}
	return 0;
}

int main(int argc, char **argv)
{
	long min_tasks = 0, min_flows = 0, min_streams = 0;
	int json_only = 0;
	long ntasks = 0, nflows = 0, nstreams = 0;
	const struct jv *evs;
	struct flowev *flows = NULL;
	struct xbox *boxes = NULL;
	int nfl = 0, nbox = 0, i, j;
	const char *path = NULL;
	struct parser p;
	struct jv root;
	char *data;
	size_t len = 0, cap = 1 << 16;
	double *tids = NULL;
	FILE *f;

	for (i = 1; i < argc; i++) {
		if (!strcmp(argv[i], "--min-tasks") && i + 1 < argc)
			min_tasks = strtol(argv[++i], NULL, 10);
		else if (!strcmp(argv[i], "--min-flows") && i + 1 < argc)
			min_flows = strtol(argv[++i], NULL, 10);
		else if (!strcmp(argv[i], "--min-streams") && i + 1 < argc)
			min_streams = strtol(argv[++i], NULL, 10);
		else if (!strcmp(argv[i], "--json-only"))
			json_only = 1;
		else if (argv[i][0] == '-' && argv[i][1])
			goto usage;
		else if (!path)
			path = argv[i];
		else
			goto usage;
	}
	if (!path)
		goto usage;
	f = strcmp(path, "-") ? fopen(path, "rb") : stdin;
	if (!f) {
		fprintf(stderr, "hcclt-trace-check: %s: %s\n", path,
			strerror(errno));
		return 2;
	}
	data = malloc(cap);
	for (;;) {
		size_t n;

		if (!data) {
			fprintf(stderr, "hcclt-trace-check: out of memory\n");
			return 2;
		}
		n = fread(data + len, 1, cap - len, f);
		len += n;
		if (len < cap)
			break;
		data = realloc(data, cap *= 2);
	}
	if (f != stdin)
		fclose(f);

	memset(&root, 0, sizeof(root));
	memset(&p, 0, sizeof(p));
	p.s = data;
	p.end = data + len;
	if (!parse_value(&p, &root)) {
		skip_ws(&p);
		if (p.s != p.end)
			perr(&p, "trailing data after JSON value");
	}
	if (p.err) {
		fprintf(stderr, "hcclt-trace-check: %s: invalid JSON at byte "
			"%ld: %s\n", path, (long)len - p.errpos, p.err);
		return 1;
	}
	if (json_only) {
		printf("hcclt-trace-check: %s: valid JSON\n", path);
		jv_free(&root);
		free(data);
		return 0;
	}
	if (root.t != J_OBJ) {
		fprintf(stderr, "hcclt-trace-check: top level is not an "
			"object\n");
		return 1;
	}
	evs = jget(&root, "traceEvents");
	if (!evs || evs->t != J_ARR) {
		fprintf(stderr, "hcclt-trace-check: no \"traceEvents\" array\n");
		return 1;
	}
	tids = calloc((size_t)evs->n + 1, sizeof(*tids));
	flows = calloc((size_t)evs->n + 1, sizeof(*flows));
	boxes = calloc((size_t)evs->n + 1, sizeof(*boxes));
	if (!tids || !flows || !boxes) {
		fprintf(stderr, "hcclt-trace-check: out of memory\n");
		return 2;
	}
	for (i = 0; i < evs->n; i++) {
		const struct jv *e = &evs->kids[i], *ph, *v;

		if (e->t != J_OBJ) {
			bad(i, "%s", "not an object");
			continue;
		}
		ph = jget(e, "ph");
		if (!ph || ph->t != J_STR) {
			bad(i, "%s", "missing or non-string \"ph\"");
			continue;
		}
		if (!strcmp(ph->str, "X")) {
			int ok = need(e, i, "name", J_STR) &
				 need(e, i, "ts", J_NUM) &
				 need(e, i, "dur", J_NUM) &
				 need(e, i, "pid", J_NUM) &
				 need(e, i, "tid", J_NUM);

			if (ok && jget(e, "dur")->num < 0)
				bad(i, "%s", "negative dur");
			if (ok) {
				double tid = jget(e, "tid")->num;

				boxes[nbox].pid = jget(e, "pid")->num;
				boxes[nbox].tid = tid;
				boxes[nbox].ts = jget(e, "ts")->num;
				boxes[nbox].end = boxes[nbox].ts +
						  jget(e, "dur")->num;
				nbox++;
				ntasks++;
				for (j = 0; j < nstreams; j++)
					if (tids[j] == tid)
						break;
				if (j == nstreams)
					tids[nstreams++] = tid;
			}
		} else if (!strcmp(ph->str, "i") || !strcmp(ph->str, "I")) {
			need(e, i, "name", J_STR);
			need(e, i, "ts", J_NUM);
			need(e, i, "pid", J_NUM);
			need(e, i, "tid", J_NUM);
		} else if (!strcmp(ph->str, "M")) {
			need(e, i, "name", J_STR);
			need(e, i, "args", J_OBJ);
		} else if (!strcmp(ph->str, "s") || !strcmp(ph->str, "f")) {
			int is_s = ph->str[0] == 's';

			if (!(need(e, i, "ts", J_NUM) & need(e, i, "pid", J_NUM) &
			      need(e, i, "tid", J_NUM)))
				continue;
			v = jget(e, "id");
			if (!v || (v->t != J_NUM && v->t != J_STR)) {
				bad(i, "%s", "flow event without \"id\"");
				continue;
			}
			id_text(v, flows[nfl].id, sizeof(flows[0].id));
			flows[nfl].idx = i;
			flows[nfl].is_s = is_s;
			nfl++;
		} else if (!strcmp(ph->str, "B") || !strcmp(ph->str, "E") ||
			   !strcmp(ph->str, "C") || !strcmp(ph->str, "t")) {
			need(e, i, "ts", J_NUM);
			need(e, i, "pid", J_NUM);
		} else {
			bad(i, "unknown ph \"%s\"", ph->str);
		}
	}
	qsort(boxes, (size_t)nbox, sizeof(*boxes), cmp_box);
	for (j = 0; j < nfl; j++) {
		const struct jv *e = &evs->kids[flows[j].idx];

		if (!inside_x(boxes, nbox, jget(e, "pid")->num,
			      jget(e, "tid")->num, jget(e, "ts")->num))
			bad(flows[j].idx, "%s", "flow end not inside an X event "
			    "of its pid/tid");
	}
	/* Group by id: exactly one start and one finish each. */
	qsort(flows, (size_t)nfl, sizeof(*flows), cmp_flow);
	for (i = 0; i < nfl; i = j) {
		int ns = 0, nf = 0, first = flows[i].idx;

		for (j = i; j < nfl && !strcmp(flows[j].id, flows[i].id); j++) {
			if (flows[j].is_s)
				ns++;
			else
				nf++;
		}
		if (ns == 1 && nf == 1)
			nflows++;
		else if (!ns)
			bad(first, "flow finish id %s has no start",
			    flows[i].id);
		else if (!nf)
			bad(first, "flow start id %s has no finish",
			    flows[i].id);
		else
			bad(first, "flow id %s has more than one start or "
			    "finish", flows[i].id);
	}
	if (ntasks < min_tasks || nflows < min_flows ||
	    nstreams < min_streams) {
		fprintf(stderr, "hcclt-trace-check: %ld tasks, %ld flows, %ld "
			"rows: fewer than required (%ld, %ld, %ld)\n", ntasks,
			nflows, nstreams, min_tasks, min_flows, min_streams);
		errors++;
	}
	if (errors)
		fprintf(stderr, "hcclt-trace-check: %s: INVALID (%d problem%s)\n",
			path, errors, errors == 1 ? "" : "s");
	else
		printf("hcclt-trace-check: %s: ok: %d events, %ld tasks on %ld "
		       "rows, %ld flows\n", path, evs->n, ntasks, nstreams,
		       nflows);
	free(tids);
	free(flows);
	free(boxes);
	jv_free(&root);
	free(data);
	return errors ? 1 : 0;
usage:
	fprintf(stderr, "usage: hcclt-trace-check [--json-only] [--min-tasks N] "
		"[--min-flows N] [--min-streams N] FILE.json\n");
	return 2;
}
