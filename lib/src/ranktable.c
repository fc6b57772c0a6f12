// SPDX-License-Identifier: MIT
/*
 * Rank tables (HcclCommInitClusterInfo[Config]): CANN's JSON file that
 * lists the servers of a job, their cards ("device") and the rank on each.
 * hcclt_ranktable_load() reads it (CANN's file checks, all
 * HCCL_E_INTERNAL at the API), hashes its bytes (SHA-256: the identity the
 * ranks meet by, cluster.c) and waits for its "status" to be "completed";
 * hcclt_ranktable_check() checks it in the order of CANN's parser, with
 * CANN's codes, for "version" "1.0" and "1.2" on one server. Every
 * difference from CANN is listed in Documentation/channels.rst, "Rank
 * tables". Pure code, no device: the host unit tests call it directly.
 */
#include <arpa/inet.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include <json.h>

#include "internal.h"

#define PATH_LEN_MAX	4095		/* CANN's RANK_TABLE_MAX_LEN (PATH_MAX - 1) */
#define FILE_MAX	(64u << 20)	/* ours: a rank table is a few KiB */
#define SERVER_ID_MAX	64		/* CANN's SERVERID_MAX_LENGTH */
#define PORT_MAX	65535

/* ---- SHA-256 (FIPS 180-4) ------------------------------------------------ */

static const uint32_t sha_k[64] = {
	0x428a2f98, 0x71374491, 0xb5c0fbcf, 0xe9b5dba5, 0x3956c25b, 0x59f111f1, 0x923f82a4, 0xab1c5ed5,
	0xd807aa98, 0x12835b01, 0x243185be, 0x550c7dc3, 0x72be5d74, 0x80deb1fe, 0x9bdc06a7, 0xc19bf174,
	0xe49b69c1, 0xefbe4786, 0x0fc19dc6, 0x240ca1cc, 0x2de92c6f, 0x4a7484aa, 0x5cb0a9dc, 0x76f988da,
	0x983e5152, 0xa831c66d, 0xb00327c8, 0xbf597fc7, 0xc6e00bf3, 0xd5a79147, 0x06ca6351, 0x14292967,
	0x27b70a85, 0x2e1b2138, 0x4d2c6dfc, 0x53380d13, 0x650a7354, 0x766a0abb, 0x81c2c92e, 0x92722c85,
	0xa2bfe8a1, 0xa81a664b, 0xc24b8b70, 0xc76c51a3, 0xd192e819, 0xd6990624, 0xf40e3585, 0x106aa070,
	0x19a4c116, 0x1e376c08, 0x2748774c, 0x34b0bcb5, 0x391c0cb3, 0x4ed8aa4a, 0x5b9cca4f, 0x682e6ff3,
	0x748f82ee, 0x78a5636f, 0x84c87814, 0x8cc70208, 0x90befffa, 0xa4506ceb, 0xbef9a3f7, 0xc67178f2,
};

static uint32_t ror(uint32_t x, unsigned int n)
{
	return (x >> n) | (x << (32 - n));
}

static void sha_block(uint32_t h[8], const uint8_t *p)
{
	uint32_t w[64], v[8], t1, t2;
	int i;

	for (i = 0; i < 16; i++)
		w[i] = (uint32_t)p[4 * i] << 24 | (uint32_t)p[4 * i + 1] << 16 |
		       (uint32_t)p[4 * i + 2] << 8 | p[4 * i + 3];
	for (i = 16; i < 64; i++)
		w[i] = w[i - 16] + w[i - 7] +
		       (ror(w[i - 15], 7) ^ ror(w[i - 15], 18) ^ (w[i - 15] >> 3)) +
		       (ror(w[i - 2], 17) ^ ror(w[i - 2], 19) ^ (w[i - 2] >> 10));
	memcpy(v, h, sizeof(v));
	for (i = 0; i < 64; i++) {
		t1 = v[7] + (ror(v[4], 6) ^ ror(v[4], 11) ^ ror(v[4], 25)) +
		     ((v[4] & v[5]) ^ (~v[4] & v[6])) + sha_k[i] + w[i];
		t2 = (ror(v[0], 2) ^ ror(v[0], 13) ^ ror(v[0], 22)) +
		     ((v[0] & v[1]) ^ (v[0] & v[2]) ^ (v[1] & v[2]));
		memmove(&v[1], &v[0], 7 * sizeof(v[0]));
		v[4] += t1;
		v[0] = t1 + t2;
	}
	for (i = 0; i < 8; i++)
		h[i] += v[i];
}

void hcclt_sha256(const void *data, size_t len, uint8_t out[32])
{
	uint32_t h[8] = { 0x6a09e667, 0xbb67ae85, 0x3c6ef372, 0xa54ff53a,
			  0x510e527f, 0x9b05688c, 0x1f83d9ab, 0x5be0cd19 };
	const uint8_t *p = data;
	uint64_t bits = (uint64_t)len * 8;
	uint8_t tail[128];
	size_t rest = len % 64, n;
	int i;

	for (n = 0; n + 64 <= len; n += 64)
		sha_block(h, p + n);
	memset(tail, 0, sizeof(tail));
	memcpy(tail, p + n, rest);
	tail[rest] = 0x80;
	n = rest < 56 ? 64 : 128;
	for (i = 0; i < 8; i++)
		tail[n - 1 - i] = (uint8_t)(bits >> (8 * i));
	sha_block(h, tail);
	if (n == 128)
		sha_block(h, tail + 64);
	for (i = 0; i < 32; i++)
		out[i] = (uint8_t)(h[i / 4] >> (24 - 8 * (i % 4)));
}

/* ---- loading ------------------------------------------------------------- */

static int64_t mono_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (int64_t)ts.tv_sec * 1000000000 + ts.tv_nsec;
}

/* The file's bytes, NUL-terminated (malloc), or NULL with errno set. */
static char *read_all(const char *path, size_t *len)
{
	struct stat st;
	size_t n = 0;
	ssize_t r;
	char *buf;
	int fd;

	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return NULL;
	if (fstat(fd, &st) || !S_ISREG(st.st_mode) || st.st_size > FILE_MAX) {
		int e = errno;

		if (!fstat(fd, &st))
			e = S_ISREG(st.st_mode) ? EFBIG : EISDIR;
		close(fd);
		errno = e;
		return NULL;
	}
	buf = malloc((size_t)st.st_size + 1);
	if (!buf) {
		close(fd);
		return NULL;
	}
	/* Read to the end: the file may have grown since fstat() (up to the limit). */
	while (n < (size_t)st.st_size && (r = read(fd, buf + n, (size_t)st.st_size - n)) != 0) {
		if (r < 0) {
			if (errno == EINTR)
				continue;
			free(buf);
			close(fd);
			return NULL;
		}
		n += (size_t)r;
	}
	close(fd);
	buf[n] = '\0';
	*len = n;
	return buf;
}

static int blank(const char *p, size_t n)
{
	while (n--) {
		if (*p != ' ' && *p != '\t' && *p != '\n' && *p != '\r')
			return 0;
		p++;
	}
	return 1;
}

/*
 * Read and parse @path once into @rt (its root and digest replaced): 0, or
 * HCCL_E_INTERNAL; *@completed when "status" is "completed".
 */
static HcclResult load_once(const char *path, struct hcclt_ranktable *rt, int *completed)
{
	struct json_object *root = NULL, *st;
	struct json_tokener *tok;
	size_t len, end;
	char *buf;

	buf = read_all(path, &len);
	if (!buf) {
		hcclt_debug("rank table %s: cannot read it: %s", path, strerror(errno));
		return HCCL_E_INTERNAL;
	}
	tok = json_tokener_new();
	if (tok) {
		json_tokener_set_flags(tok, JSON_TOKENER_STRICT);
		root = json_tokener_parse_ex(tok, buf, (int)len);
		if (root && json_tokener_get_error(tok) != json_tokener_success) {
			json_object_put(root);
			root = NULL;
		}
	}
	if (!root) {
		hcclt_debug("rank table %s: not JSON: %s", path,
			    tok ? json_tokener_error_desc(json_tokener_get_error(tok)) : "no memory");
		goto bad;
	}
	end = json_tokener_get_parse_end(tok);
	if (!blank(buf + end, len - end)) {
		hcclt_debug("rank table %s: characters after the JSON value (byte %zu)", path, end);
		goto bad;
	}
	/* CANN reads "status" first: no object or no string is a load error. */
	if (!json_object_is_type(root, json_type_object) ||
	    !json_object_object_get_ex(root, "status", &st) ||
	    !json_object_is_type(st, json_type_string)) {
		hcclt_debug("rank table %s: no \"status\" string", path);
		goto bad;
	}
	*completed = !strcmp(json_object_get_string(st), "completed");
	json_object_put(rt->root);
	rt->root = root;
	hcclt_sha256(buf, len, rt->digest);
	json_tokener_free(tok);
	free(buf);
	return HCCL_SUCCESS;
bad:
	json_object_put(root);
	if (tok)
		json_tokener_free(tok);
	free(buf);
	return HCCL_E_INTERNAL;
}

HcclResult hcclt_ranktable_load(const char *path, int64_t deadline_ns,
				struct hcclt_ranktable *rt)
{
	HcclResult ret;
	size_t n;
	char *real;
	int completed = 0;

	memset(rt, 0, sizeof(*rt));
	n = strnlen(path, PATH_LEN_MAX + 1);
	if (!n || n > PATH_LEN_MAX) {
		hcclt_debug("rank table path of %zu bytes (1 to %d)", n, PATH_LEN_MAX);
		return HCCL_E_INTERNAL;
	}
	real = realpath(path, NULL);
	if (!real) {
		hcclt_debug("rank table %s: %s", path, strerror(errno));
		return HCCL_E_INTERNAL;
	}
	n = strlen(real);
	if (n < 5 || strcmp(real + n - 5, ".json")) {
		hcclt_debug("rank table %s: not a .json file", real);
		free(real);
		return HCCL_E_INTERNAL;
	}
	/* CANN reads it again every second until it is "completed". */
	while ((ret = load_once(real, rt, &completed)) == HCCL_SUCCESS && !completed) {
		int64_t left = deadline_ns - mono_ns();
		struct timespec ts;

		if (deadline_ns != HCCLT_DEADLINE_NONE && left <= 0) {
			hcclt_debug("rank table %s: \"status\" still not \"completed\" "
				    "(HCCL_CONNECT_TIMEOUT)", real);
			ret = HCCL_E_INTERNAL;
			break;
		}
		if (deadline_ns == HCCLT_DEADLINE_NONE || left > 1000000000)
			left = 1000000000;
		ts.tv_sec = left / 1000000000;
		ts.tv_nsec = left % 1000000000;
		nanosleep(&ts, NULL);
	}
	free(real);
	if (ret != HCCL_SUCCESS)
		hcclt_ranktable_free(rt);
	return ret;
}

void hcclt_ranktable_free(struct hcclt_ranktable *rt)
{
	json_object_put(rt->root);
	free(rt->dev);
	memset(rt, 0, sizeof(*rt));
}

/* ---- checking ------------------------------------------------------------ */

/* One "device" entry. */
struct rt_rank {
	uint32_t rank_id;
	uint32_t dev;
	uint32_t server;
	uint32_t nips;		/* addresses in "device_ip" (1 when none) */
};

struct rt_check {
	const char *what;	/* for messages: a literal or where */
	char where[96];
	struct rt_rank *ranks;
	uint32_t nranks, cap;
	char **ips;		/* every "device_ip" address so far */
	uint32_t nips, ipcap;
};

/*
 * The string @key of @o: HCCL_SUCCESS; HCCL_E_NOT_FOUND when missing (or
 * @o is no object), HCCL_E_PARA when not a string (CANN's
 * GetJsonProperty/GetJsonArrayMemberProperty).
 */
static HcclResult get_str(struct json_object *o, const char *key, const char **out)
{
	struct json_object *v;

	if (!json_object_is_type(o, json_type_object) || !json_object_object_get_ex(o, key, &v))
		return HCCL_E_NOT_FOUND;
	if (!json_object_is_type(v, json_type_string))
		return HCCL_E_PARA;
	*out = json_object_get_string(v);
	return HCCL_SUCCESS;
}

/* A required string: as get_str(), with a message. */
static HcclResult need_str(struct rt_check *k, struct json_object *o, const char *key,
			   const char **out)
{
	HcclResult r = get_str(o, key, out);

	if (r == HCCL_E_NOT_FOUND)
		hcclt_debug("rank table: %s: no \"%s\"", k->what, key);
	else if (r != HCCL_SUCCESS)
		hcclt_debug("rank table: %s: \"%s\" is not a string", k->what, key);
	return r;
}

/* An optional string: HCCL_SUCCESS with *@out NULL when missing. */
static HcclResult opt_str(struct rt_check *k, struct json_object *o, const char *key,
			  const char **out)
{
	HcclResult r = get_str(o, key, out);

	*out = r == HCCL_SUCCESS ? *out : NULL;
	if (r == HCCL_E_NOT_FOUND)
		return HCCL_SUCCESS;
	if (r != HCCL_SUCCESS)
		hcclt_debug("rank table: %s: \"%s\" is not a string", k->what, key);
	return r;
}

/* A decimal number up to 2^32 - 1, nothing else (CANN's SalStrToULong). */
static int dec_u32(const char *s, uint32_t *v)
{
	uint64_t x = 0;
	const char *p = s;

	if (!*p)
		return -1;
	for (; *p; p++) {
		if (*p < '0' || *p > '9' || p - s >= 10)
			return -1;
		x = x * 10 + (uint64_t)(*p - '0');
	}
	if (x > UINT32_MAX)
		return -1;
	*v = (uint32_t)x;
	return 0;
}

static int ip_valid(const char *s)
{
	unsigned char a[16];

	return inet_pton(AF_INET, s, a) == 1 || inet_pton(AF_INET6, s, a) == 1;
}

/* An optional port: 1 to 65535 (CANN refuses 0, its "reserved" value). */
static HcclResult opt_port(struct rt_check *k, struct json_object *o, const char *key,
			   int *present)
{
	const char *s;
	uint32_t v;
	HcclResult r = opt_str(k, o, key, &s);

	*present = s != NULL;
	if (r != HCCL_SUCCESS || !s)
		return r;
	if (dec_u32(s, &v) || !v || v > PORT_MAX) {
		hcclt_debug("rank table: %s: \"%s\" \"%s\" is not a port (1 to %d)",
			    k->what, key, s, PORT_MAX);
		return HCCL_E_PARA;
	}
	return HCCL_SUCCESS;
}

/* "device_ip": addresses separated by commas, each unique in the table. */
static HcclResult device_ips(struct rt_check *k, const char *s, uint32_t *n)
{
	const char *p = s, *c;
	char ip[INET6_ADDRSTRLEN + 1];
	uint32_t i;

	*n = 0;
	while (*p) {
		c = strchr(p, ',');
		if (!c)
			c = p + strlen(p);
		if ((size_t)(c - p) >= sizeof(ip))
			goto bad;
		memcpy(ip, p, (size_t)(c - p));
		ip[c - p] = '\0';
		if (!ip_valid(ip))
			goto bad;
		for (i = 0; i < k->nips; i++) {
			if (!strcmp(k->ips[i], ip)) {
				hcclt_debug("rank table: %s: device_ip %s twice", k->what, ip);
				return HCCL_E_PARA;
			}
		}
		if (k->nips == k->ipcap) {
			uint32_t cap = k->ipcap ? 2 * k->ipcap : 16;
			char **m = realloc(k->ips, cap * sizeof(*m));

			if (!m)
				return HCCL_E_MEMORY;
			k->ips = m;
			k->ipcap = cap;
		}
		k->ips[k->nips] = strdup(ip);
		if (!k->ips[k->nips])
			return HCCL_E_MEMORY;
		k->nips++;
		(*n)++;
		p = *c ? c + 1 : c;
	}
	return HCCL_SUCCESS;
bad:
	hcclt_debug("rank table: %s: device_ip \"%s\" is not a list of addresses", k->what, s);
	return HCCL_E_PARA;
}

/* One "device" entry of server @si (CANN's GetSingleDevice, in its order). */
static HcclResult one_device(struct rt_check *k, struct json_object *d, uint32_t si,
			     int super, uint32_t nservers, int host_ip, int ndev)
{
	const char *rank_id, *dev_id, *ips, *sdid;
	struct rt_rank *r;
	uint32_t v, i;
	HcclResult ret;
	int port;

	ret = need_str(k, d, "rank_id", &rank_id);
	if (ret == HCCL_SUCCESS)
		ret = need_str(k, d, "device_id", &dev_id);
	if (ret != HCCL_SUCCESS)
		return ret;
	if (dec_u32(dev_id, &v) || v >= (uint32_t)ndev) {
		hcclt_debug("rank table: %s: device_id \"%s\" is not a card of this "
			    "machine (0 to %d)", k->what, dev_id, ndev - 1);
		return HCCL_E_PARA;
	}
	/* Ours: CANN fails later, when the two ranks meet on one card. */
	for (i = 0; i < k->nranks; i++) {
		if (k->ranks[i].server == si && k->ranks[i].dev == v) {
			hcclt_debug("rank table: %s: device_id %u twice on the server",
				    k->what, v);
			return HCCL_E_PARA;
		}
	}
	if (k->nranks == k->cap) {
		uint32_t cap = k->cap ? 2 * k->cap : 16;
		struct rt_rank *m = realloc(k->ranks, cap * sizeof(*m));

		if (!m)
			return HCCL_E_MEMORY;
		k->ranks = m;
		k->cap = cap;
	}
	r = &k->ranks[k->nranks];
	r->dev = v;
	r->server = si;
	r->nips = 1;
	ret = opt_port(k, d, "host_port", &port);
	if (ret != HCCL_SUCCESS)
		return ret;
	ret = opt_str(k, d, "device_ip", &ips);
	if (ret != HCCL_SUCCESS)
		return ret;
	/* Several servers: a rank needs an address (CANN). */
	if (nservers > 1 && !ips && !host_ip) {
		hcclt_debug("rank table: %s: no device_ip (several servers)", k->what);
		return HCCL_E_PARA;
	}
	if (ips && *ips) {
		ret = device_ips(k, ips, &r->nips);
		if (ret != HCCL_SUCCESS)
			return ret;
	}
	ret = opt_port(k, d, "device_port", &port);
	if (ret == HCCL_SUCCESS && port)
		ret = opt_port(k, d, "device_vnic_port", &port);
	if (ret != HCCL_SUCCESS)
		return ret;
	if (dec_u32(rank_id, &r->rank_id)) {
		hcclt_debug("rank table: %s: rank_id \"%s\" is not a number", k->what, rank_id);
		return HCCL_E_PARA;
	}
	if (super) {
		ret = opt_str(k, d, "super_device_id", &sdid);
		if (ret != HCCL_SUCCESS)
			return ret;
		if (sdid && dec_u32(sdid, &v)) {
			hcclt_debug("rank table: %s: super_device_id \"%s\" is not a number",
				    k->what, sdid);
			return HCCL_E_PARA;
		}
	}
	k->nranks++;
	return HCCL_SUCCESS;
}

/* One "server_list" entry (CANN's GetSingleServer and GetDeviceList). */
static HcclResult one_server(struct rt_check *k, struct json_object *list, uint32_t si,
			     int super, int ndev)
{
	struct json_object *s = json_object_array_get_idx(list, si), *devs;
	uint32_t nservers = (uint32_t)json_object_array_length(list), i, j, before;
	const char *id, *host_ip;
	HcclResult ret;
	size_t n;

	snprintf(k->where, sizeof(k->where), "server_list[%u]", si);
	k->what = k->where;
	ret = need_str(k, s, "server_id", &id);
	if (ret != HCCL_SUCCESS)
		return ret;
	if (!*id || strlen(id) > SERVER_ID_MAX) {
		hcclt_debug("rank table: %s: server_id of %zu characters (1 to %d)",
			    k->what, strlen(id), SERVER_ID_MAX);
		return HCCL_E_PARA;
	}
	for (j = 0; j < si; j++) {
		const char *other;

		if (get_str(json_object_array_get_idx(list, j), "server_id", &other) ==
		    HCCL_SUCCESS && !strcmp(other, id)) {
			hcclt_debug("rank table: %s: server_id %s twice", k->what, id);
			return HCCL_E_PARA;
		}
	}
	ret = opt_str(k, s, "host_ip", &host_ip);
	if (ret != HCCL_SUCCESS)
		return ret;
	if (host_ip && !ip_valid(host_ip)) {
		hcclt_debug("rank table: %s: host_ip \"%s\" is not an address", k->what,
			    host_ip);
		return HCCL_E_PARA;
	}
	if (!json_object_object_get_ex(s, "device", &devs)) {
		hcclt_debug("rank table: %s: no \"device\"", k->what);
		return HCCL_E_NOT_FOUND;
	}
	if (!json_object_is_type(devs, json_type_array) || !json_object_array_length(devs)) {
		hcclt_debug("rank table: %s: \"device\" is not a list of devices", k->what);
		return HCCL_E_PARA;
	}
	before = k->nranks;
	n = json_object_array_length(devs);
	for (i = 0; i < n; i++) {
		snprintf(k->where, sizeof(k->where), "server_list[%u].device[%u]", si, i);
		ret = one_device(k, json_object_array_get_idx(devs, i), si, super, nservers,
				 host_ip != NULL, ndev);
		if (ret != HCCL_SUCCESS)
			return ret;
	}
	/* CANN: every rank has as many device_ip addresses as the first. */
	for (i = before; i < k->nranks; i++) {
		if (k->ranks[i].nips != k->ranks[0].nips) {
			hcclt_debug("rank table: %s: %u device_ip addresses, the first rank has %u",
				    k->what, k->ranks[i].nips, k->ranks[0].nips);
			return HCCL_E_PARA;
		}
	}
	return HCCL_SUCCESS;
}

/* "super_pod_list" of a "1.2" table: structure only (CANN's GetSuperPodList). */
static HcclResult super_pods(struct rt_check *k, struct json_object *root,
			     struct json_object *servers)
{
	struct json_object *pods, *pod, *list;
	const char *id, *sid, *other;
	size_t i, j, m, n;
	HcclResult ret;
	int found;

	k->what = "super_pod_list";
	if (!json_object_object_get_ex(root, "super_pod_list", &pods))
		return HCCL_SUCCESS;
	if (!json_object_is_type(pods, json_type_array) || !json_object_array_length(pods)) {
		hcclt_debug("rank table: super_pod_list is not a list");
		return HCCL_E_PARA;
	}
	for (i = 0; i < json_object_array_length(pods); i++) {
		pod = json_object_array_get_idx(pods, i);
		ret = need_str(k, pod, "super_pod_id", &id);
		if (ret != HCCL_SUCCESS)
			return ret;
		for (j = 0; j < i; j++) {
			if (!*id || (get_str(json_object_array_get_idx(pods, j), "super_pod_id",
					     &other) == HCCL_SUCCESS && !strcmp(other, id))) {
				hcclt_debug("rank table: super_pod_id \"%s\" empty or twice", id);
				return HCCL_E_PARA;
			}
		}
		if (!json_object_object_get_ex(pod, "server_list", &list)) {
			hcclt_debug("rank table: super pod %s: no \"server_list\"", id);
			return HCCL_E_NOT_FOUND;
		}
		if (!json_object_is_type(list, json_type_array)) {
			hcclt_debug("rank table: super pod %s: server_list is not a list", id);
			return HCCL_E_PARA;
		}
		for (j = 0; j < json_object_array_length(list); j++) {
			ret = need_str(k, json_object_array_get_idx(list, j), "server_id", &sid);
			if (ret != HCCL_SUCCESS)
				return ret;
			n = json_object_array_length(servers);
			for (m = 0, found = 0; m < n && !found; m++)
				found = get_str(json_object_array_get_idx(servers, m), "server_id",
						&other) == HCCL_SUCCESS && !strcmp(other, sid);
			if (!found) {
				hcclt_debug("rank table: super pod %s: server %s is not in "
					    "server_list", id, sid);
				return HCCL_E_NOT_FOUND;
			}
		}
	}
	return HCCL_SUCCESS;
}

static int by_rank(const void *a, const void *b)
{
	const struct rt_rank *x = a, *y = b;

	return x->rank_id < y->rank_id ? -1 : x->rank_id > y->rank_id;
}

static HcclResult check(struct rt_check *k, struct hcclt_ranktable *rt, uint32_t rank,
			int32_t dev, int ndev)
{
	struct json_object *root = rt->root, *servers;
	const char *version, *count;
	uint32_t nservers, v, i;
	HcclResult ret;
	int super;

	k->what = "the table";
	ret = get_str(root, "version", &version);
	if (ret == HCCL_E_NOT_FOUND) {
		hcclt_debug("rank table without \"version\": the older format is not supported");
		return HCCL_E_NOT_SUPPORT;
	}
	if (ret != HCCL_SUCCESS) {
		hcclt_debug("rank table: \"version\" is not a string");
		return ret;
	}
	if (strcmp(version, "1.0") && strcmp(version, "1.2")) {
		hcclt_debug("rank table version \"%s\" is not supported (1.0, 1.2)", version);
		return HCCL_E_NOT_SUPPORT;
	}
	super = !strcmp(version, "1.2");
	if (!json_object_object_get_ex(root, "server_list", &servers)) {
		hcclt_debug("rank table: no \"server_list\"");
		return HCCL_E_NOT_FOUND;
	}
	if (!json_object_is_type(servers, json_type_array) ||
	    !json_object_array_length(servers)) {
		hcclt_debug("rank table: \"server_list\" is not a list of servers");
		return HCCL_E_PARA;
	}
	nservers = (uint32_t)json_object_array_length(servers);
	ret = opt_str(k, root, "server_count", &count);
	if (ret != HCCL_SUCCESS)
		return ret;
	if (count && (dec_u32(count, &v) || v != nservers)) {
		hcclt_debug("rank table: server_count \"%s\", server_list has %u", count, nservers);
		return HCCL_E_PARA;
	}
	for (i = 0; i < nservers; i++) {
		ret = one_server(k, servers, i, super, ndev);
		if (ret != HCCL_SUCCESS)
			return ret;
	}
	if (super) {
		ret = super_pods(k, root, servers);
		if (ret != HCCL_SUCCESS)
			return ret;
	}
	if (nservers > 1) {
		hcclt_debug("rank table of %u servers: only one server (this machine) is "
			    "supported for now", nservers);
		return HCCL_E_NOT_SUPPORT;
	}
	qsort(k->ranks, k->nranks, sizeof(*k->ranks), by_rank);
	if (rank >= k->nranks) {
		hcclt_debug("rank table: rank %u, the table has %u ranks", rank, k->nranks);
		return HCCL_E_PARA;
	}
	if (k->ranks[rank].rank_id != rank) {
		hcclt_debug("rank table: rank %u is not in it (rank_id %u at its place)",
			    rank, k->ranks[rank].rank_id);
		return HCCL_E_UNAVAIL;
	}
	if (k->ranks[rank].dev != (uint32_t)dev) {
		hcclt_debug("rank table: rank %u is on device %u, the current device is %d",
			    rank, k->ranks[rank].dev, dev);
		return HCCL_E_UNAVAIL;
	}
	for (i = 0; i < k->nranks; i++) {
		if (k->ranks[i].rank_id != i) {
			hcclt_debug("rank table: rank_id %u: the ranks must be 0 to %u, each once",
				    k->ranks[i].rank_id, k->nranks - 1);
			return HCCL_E_PARA;
		}
	}
	if (k->nranks > HCCLT_MAX_GROUP_RANKS) {
		hcclt_debug("rank table of %u ranks (at most %d)", k->nranks, HCCLT_MAX_GROUP_RANKS);
		return HCCL_E_PARA;
	}
	rt->dev = malloc(k->nranks * sizeof(*rt->dev));
	if (!rt->dev)
		return HCCL_E_MEMORY;
	for (i = 0; i < k->nranks; i++)
		rt->dev[i] = (int32_t)k->ranks[i].dev;
	rt->nranks = k->nranks;
	return HCCL_SUCCESS;
}

HcclResult hcclt_ranktable_check(struct hcclt_ranktable *rt, uint32_t rank, int32_t dev,
				 int ndev)
{
	struct rt_check k;
	HcclResult ret;
	uint32_t i;

	memset(&k, 0, sizeof(k));
	ret = check(&k, rt, rank, dev, ndev);
	for (i = 0; i < k.nips; i++)
		free(k.ips[i]);
	free(k.ips);
	free(k.ranks);
	return ret;
}
