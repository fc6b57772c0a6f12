// SPDX-License-Identifier: MIT
/*
 * ACL profiling (acl/acl_prof.h): aclprofInit ... aclprofFinalize.
 *
 * What is recorded is what hcclthread-trace records: the hcclthread
 * tracepoints (every stream task's start and completion, submits,
 * acquires, wait timeouts, copies), read back as raw records with typed
 * fields by tools/trace/hcclt_trace.c (libtracefs, libtraceevent), which
 * this library links. Each aclprofStart() makes a private tracefs
 * instance, "hcclthread-aclprof-<pid>-<n>", and aclprofStop() converts
 * the events of the configuration's devices to a Chrome/Perfetto trace
 * JSON timeline in <profilerResultPath>/PROF_<n>_<time>_<pid>/timeline.json
 * and removes the instance. Why the tracepoints and not the driver's other
 * facilities: they are the only record of when each task ran on the
 * device (events and fences only say when a record or a batch completed),
 * and the timeline is then the same as the tool's, drawn by the same
 * converter. The price: recording needs tracefs (root), and shows the
 * profiled devices' tasks of every process. An instance left by a
 * process that died is removed by the next aclprofStart() of any process.
 *
 * State: the path, the started recordings and the devices they record,
 * under prof_lock, which is taken with no other lock of the library held
 * and holds none but the device count's.
 */
#include <errno.h>
#include <limits.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "internal.h"
#include "acl/acl_prof.h"
#include "hcclt_trace.h"

#define PROF_CONFIG_MAGIC	0x48435046U	/* "HCPF" */
#define PROF_MAX_DEVS		64		/* CANN's PROF_MAX_DEV_NUM */
#define PROF_PATH_MAX		4096		/* CANN's longest path */
#define PROF_BUFFER_KB		8192		/* per CPU, as hcclthread-trace */
#define PROF_INSTANCE		"hcclthread-aclprof-"

/* The dataTypeConfig bits CANN accepts (its PROF_SWITCH_SUPPORT). */
#define PROF_SUPPORTED	(ACL_PROF_ACL_API | ACL_PROF_TASK_TIME | \
			 ACL_PROF_AICORE_METRICS | ACL_PROF_AICPU | \
			 ACL_PROF_L2CACHE | ACL_PROF_HCCL_TRACE | \
			 ACL_PROF_TRAINING_TRACE | ACL_PROF_MSPROFTX | \
			 ACL_PROF_RUNTIME_API | ACL_PROF_GE_API_L0 | \
			 ACL_PROF_TASK_TIME_L0 | ACL_PROF_TASK_MEMORY | \
			 ACL_PROF_TASK_TIME_L2 | ACL_PROF_OP_ATTR | \
			 ACL_PROF_TASK_TIME_L3 | ACL_PROF_GE_API_L1)

struct aclprofConfig {
	uint32_t magic;
	uint32_t ndevs;
	uint64_t devmask;	/* bit N: device N */
	uint64_t types;		/* dataTypeConfig, as given */
	aclprofAicoreMetrics metrics;
};

/* One aclprofStart(): its devices and its tracefs instance. */
struct prof_run {
	struct hcclt_trace_rec *rec;	/* NULL: no device (ACL_PROF_MSPROFTX) */
	uint64_t devmask;
	uint64_t types;
	unsigned int index;		/* of the aclprofStart() calls */
};

/* protects everything below */
static pthread_mutex_t prof_lock = PTHREAD_MUTEX_INITIALIZER;
static char *prof_path;		/* aclprofInit()'s, absolute; NULL before */
static unsigned int prof_runs;	/* aclprofStart() calls since aclprofInit() */
static struct prof_run runs[PROF_MAX_DEVS];
static unsigned int nruns;

void hcclt_prof_atfork_prepare(void)
{
	pthread_mutex_lock(&prof_lock);
}

void hcclt_prof_atfork_parent(void)
{
	pthread_mutex_unlock(&prof_lock);
}

/* The recordings are the parent's: the child forgets them, and the path. */
void hcclt_prof_atfork_child(void)
{
	nruns = 0;
	free(prof_path);
	prof_path = NULL;
	pthread_mutex_unlock(&prof_lock);
}

/* mkdir -p @path (absolute); 0 or -errno. */
static int mkdirs(char *path)
{
	struct stat sb;
	char *p, c;

	for (p = path + 1; ; p++) {
		if (*p != '/' && *p)
			continue;
		c = *p;
		*p = '\0';
		if (mkdir(path, 0750) && errno != EEXIST) {
			*p = c;
			return -errno;
		}
		*p = c;
		if (!c)
			break;
	}
	if (stat(path, &sb) || !S_ISDIR(sb.st_mode))
		return -ENOTDIR;
	return 0;
}

HCCLT_EXPORT aclError aclprofInit(const char *profilerResultPath, size_t length)
{
	char buf[PROF_PATH_MAX + PATH_MAX + 2], *abs;
	aclError ret = ACL_SUCCESS;

	/* CANN's order: the path and its length, then the state. */
	if (!profilerResultPath || strlen(profilerResultPath) != length)
		return ACL_ERROR_INVALID_PARAM;
	if (!length || length > PROF_PATH_MAX)
		return ACL_ERROR_INVALID_PARAM;
	pthread_mutex_lock(&prof_lock);
	if (prof_path) {
		ret = ACL_ERROR_REPEAT_INITIALIZE;
		goto out;
	}
	if (profilerResultPath[0] == '/') {
		snprintf(buf, sizeof(buf), "%s", profilerResultPath);
	} else {
		if (!getcwd(buf, PATH_MAX)) {
			ret = ACL_ERROR_INVALID_FILE;
			goto out;
		}
		snprintf(buf + strlen(buf), sizeof(buf) - strlen(buf), "/%s",
			 profilerResultPath);
	}
	if (mkdirs(buf) || access(buf, W_OK | X_OK)) {
		ret = ACL_ERROR_INVALID_FILE;
		goto out;
	}
	abs = realpath(buf, NULL);
	if (!abs) {
		ret = ACL_ERROR_INVALID_FILE;
		goto out;
	}
	prof_path = abs;
	prof_runs = 0;
out:
	pthread_mutex_unlock(&prof_lock);
	return ret;
}

HCCLT_EXPORT aclprofConfig *aclprofCreateConfig(uint32_t *deviceIdList, uint32_t deviceNums,
						aclprofAicoreMetrics aicoreMetrics,
						const aclprofAicoreEvents *aicoreEvents,
						uint64_t dataTypeConfig)
{
	struct aclprofConfig *cfg;
	uint64_t mask = 0;
	uint32_t i;
	int n;

	if ((deviceNums && !deviceIdList) || aicoreEvents || deviceNums > PROF_MAX_DEVS)
		return NULL;
	n = hcclt_device_count();
	if (deviceNums > (uint32_t)n)
		return NULL;
	for (i = 0; i < deviceNums; i++) {
		/* In range, and each once. */
		if (deviceIdList[i] >= (uint32_t)n || (mask >> deviceIdList[i]) & 1)
			return NULL;
		mask |= UINT64_C(1) << deviceIdList[i];
	}
	if (!deviceNums && !(dataTypeConfig & ACL_PROF_MSPROFTX))
		return NULL;
	cfg = calloc(1, sizeof(*cfg));
	if (!cfg)
		return NULL;
	cfg->magic = PROF_CONFIG_MAGIC;
	cfg->ndevs = deviceNums;
	cfg->devmask = mask;
	cfg->types = dataTypeConfig;
	cfg->metrics = aicoreMetrics;
	return cfg;
}

HCCLT_EXPORT aclError aclprofDestroyConfig(const aclprofConfig *profilerConfig)
{
	struct aclprofConfig *cfg = (struct aclprofConfig *)profilerConfig;

	if (!cfg)
		return ACL_ERROR_INVALID_PARAM;
	cfg->magic = 0;
	free(cfg);
	return ACL_SUCCESS;
}

/* The checks of aclprofStart() and aclprofStop() before the state's. */
static aclError config_check(const aclprofConfig *cfg)
{
	if (!cfg || cfg->magic != PROF_CONFIG_MAGIC || !cfg->types)
		return ACL_ERROR_INVALID_PARAM;
	if (cfg->types & ~(uint64_t)PROF_SUPPORTED)
		return ACL_ERROR_PROF_MODULES_UNSUPPORTED;
	return ACL_SUCCESS;
}

HCCLT_EXPORT aclError aclprofStart(const aclprofConfig *profilerConfig)
{
	struct prof_run *run;
	char name[64];
	aclError ret;
	unsigned int i;

	ret = config_check(profilerConfig);
	if (ret != ACL_SUCCESS)
		return ret;
	pthread_mutex_lock(&prof_lock);
	if (!prof_path) {
		ret = ACL_ERROR_PROF_NOT_RUN;
		goto out;
	}
	for (i = 0; i < nruns; i++)
		if (runs[i].devmask & profilerConfig->devmask) {
			ret = ACL_ERROR_PROF_ALREADY_RUN;
			goto out;
		}
	if (nruns == PROF_MAX_DEVS) {
		ret = ACL_ERROR_PROF_ALREADY_RUN;
		goto out;
	}
	run = &runs[nruns];
	run->rec = NULL;
	run->devmask = profilerConfig->devmask;
	run->types = profilerConfig->types;
	run->index = prof_runs;
	if (run->devmask) {
		hcclt_trace_rec_reap(PROF_INSTANCE);
		snprintf(name, sizeof(name), PROF_INSTANCE "%d-%u", (int)getpid(),
			 prof_runs);
		run->rec = hcclt_trace_rec_start(name, PROF_BUFFER_KB);
		if (!run->rec) {
			hcclt_debug("aclprofStart: cannot record in tracefs "
				    "instance %s: %s", name, strerror(errno));
			ret = ACL_ERROR_PROFILING_FAILURE;
			goto out;
		}
	}
	prof_runs++;
	nruns++;
out:
	pthread_mutex_unlock(&prof_lock);
	return ret;
}

/*
 * Stop @run, write its timeline in a new run directory under the path,
 * remove its instance. prof_lock held.
 */
static aclError run_finish(struct prof_run *run)
{
	char dir[PROF_PATH_MAX + 128], file[PROF_PATH_MAX + 160], stamp[32];
	struct hcclt_trace_stats st;
	aclError ret = ACL_SUCCESS;
	struct timespec ts;
	struct tm tm;
	FILE *out;
	int err;

	if (!run->rec)
		return ACL_SUCCESS;
	hcclt_trace_rec_stop(run->rec);
	clock_gettime(CLOCK_REALTIME, &ts);
	localtime_r(&ts.tv_sec, &tm);
	strftime(stamp, sizeof(stamp), "%Y%m%d%H%M%S", &tm);
	/* CANN's run directory: PROF_<index>_<local time, ms>_<pid>. */
	snprintf(dir, sizeof(dir), "%s/PROF_%06u_%s%03ld_%d", prof_path, run->index + 1,
		 stamp, ts.tv_nsec / 1000000, (int)getpid());
	snprintf(file, sizeof(file), "%s/timeline.json", dir);
	out = mkdir(dir, 0750) && errno != EEXIST ? NULL : fopen(file, "we");
	if (!out) {
		hcclt_debug("aclprofStop: %s: %s", file, strerror(errno));
		ret = ACL_ERROR_INVALID_FILE;
	} else {
		err = hcclt_trace_rec_write(run->rec, out, NULL, run->devmask,
					    "libhcclthread aclprof", &st);
		if (fclose(out) && !err)
			err = -errno;
		if (err == -EIO || err == -ENOMEM)
			ret = ACL_ERROR_PROFILING_FAILURE;
		else if (err)
			ret = ACL_ERROR_INVALID_FILE;
		else if (st.lost)
			hcclt_debug("aclprofStop: ftrace lost %lu events", st.lost);
	}
	hcclt_trace_rec_free(run->rec);
	run->rec = NULL;
	return ret;
}

HCCLT_EXPORT aclError aclprofStop(const aclprofConfig *profilerConfig)
{
	aclError ret, r;
	unsigned int i;

	ret = config_check(profilerConfig);
	if (ret != ACL_SUCCESS)
		return ret;
	pthread_mutex_lock(&prof_lock);
	if (!prof_path) {
		ret = ACL_ERROR_PROF_NOT_RUN;
		goto out;
	}
	/* Another dataTypeConfig than its start's is refused (CANN). */
	for (i = 0; i < nruns; i++)
		if ((runs[i].devmask & profilerConfig->devmask) &&
		    runs[i].types != profilerConfig->types) {
			ret = ACL_ERROR_INVALID_PROFILING_CONFIG;
			goto out;
		}
	for (i = 0; i < nruns; ) {
		/* A device-less run (ACL_PROF_MSPROFTX) stops with its config's. */
		if (!(runs[i].devmask & profilerConfig->devmask) &&
		    (runs[i].devmask || profilerConfig->devmask ||
		     runs[i].types != profilerConfig->types)) {
			i++;
			continue;
		}
		r = run_finish(&runs[i]);
		if (ret == ACL_SUCCESS)
			ret = r;
		runs[i] = runs[--nruns];
	}
out:
	pthread_mutex_unlock(&prof_lock);
	return ret;
}

HCCLT_EXPORT aclError aclprofFinalize(void)
{
	aclError ret = ACL_SUCCESS, r;

	pthread_mutex_lock(&prof_lock);
	if (!prof_path) {
		ret = ACL_ERROR_PROF_NOT_RUN;
		goto out;
	}
	while (nruns) {
		nruns--;
		r = run_finish(&runs[nruns]);
		if (ret == ACL_SUCCESS)
			ret = r;
	}
	free(prof_path);
	prof_path = NULL;
out:
	pthread_mutex_unlock(&prof_lock);
	return ret;
}
