/*
 * clock.c — kcc's one clock: seconds on the monotonic clock, for every
 * duration, deadline and budget (never for a date: it does not jump when
 * the system's time is set).
 */
#include "support.h"

#include <time.h>

double clock_now(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}
