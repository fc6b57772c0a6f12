// SPDX-License-Identifier: MIT
/*
 * hcclt-mpi-hello: the smallest proof that Open MPI runs in the test guest
 * (tools/vm/run --with-mpi). Every rank reports its host and pid; the ranks
 * then sum their rank numbers with MPI_Allreduce, gather one int each with
 * MPI_Allgather and pass a token around a ring with MPI_Sendrecv, and rank
 * 0 checks all three.
 *
 *   mpirun --allow-run-as-root --oversubscribe -n 8 hcclt-mpi-hello
 *
 * Prints "mpi-hello: N ranks, allreduce/allgather/ring ok" and exits 0, or
 * names what was wrong and exits 1.
 */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

int main(int argc, char **argv)
{
	char host[MPI_MAX_PROCESSOR_NAME];
	int rank, size, len, sum = 0, token, bad = 0, allbad = 0, i;
	int *all;

	MPI_Init(&argc, &argv);
	MPI_Comm_rank(MPI_COMM_WORLD, &rank);
	MPI_Comm_size(MPI_COMM_WORLD, &size);
	MPI_Get_processor_name(host, &len);
	printf("  rank %d of %d on %s, pid %d\n", rank, size, host, (int)getpid());
	fflush(stdout);

	MPI_Allreduce(&rank, &sum, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
	if (sum != size * (size - 1) / 2) {
		fprintf(stderr, "rank %d: allreduce gave %d, not %d\n", rank, sum,
			size * (size - 1) / 2);
		bad = 1;
	}
	all = calloc((size_t)size, sizeof(*all));
	if (!all)
		MPI_Abort(MPI_COMM_WORLD, 1);
	token = 100 + rank;
	MPI_Allgather(&token, 1, MPI_INT, all, 1, MPI_INT, MPI_COMM_WORLD);
	for (i = 0; i < size; i++) {
		if (all[i] != 100 + i) {
			fprintf(stderr, "rank %d: allgather slot %d is %d\n", rank, i, all[i]);
			bad = 1;
		}
	}
	/* Send to the right neighbour, receive from the left. */
	MPI_Sendrecv(&rank, 1, MPI_INT, (rank + 1) % size, 7, &token, 1, MPI_INT,
		     (rank + size - 1) % size, 7, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
	if (token != (rank + size - 1) % size) {
		fprintf(stderr, "rank %d: ring token %d\n", rank, token);
		bad = 1;
	}
	MPI_Reduce(&bad, &allbad, 1, MPI_INT, MPI_MAX, 0, MPI_COMM_WORLD);
	if (rank == 0)
		printf("mpi-hello: %d ranks, allreduce/allgather/ring %s\n", size,
		       allbad ? "FAILED" : "ok");
	free(all);
	MPI_Finalize();
	return allbad;
}
