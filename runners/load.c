/*
 * load.c — how busy the machine is: what every measurement shares it with.
 * Timings and peak rates record it (DESIGN 6: no machine is assumed idle),
 * and a gain or a peak measured under load is measured again or not kept.
 */
#include "runner.h"

#include <stdio.h>
#include <unistd.h>

double proc_load(void)
{
	FILE *f = fopen("/proc/loadavg", "r");
	double l1, l5, l15;
	int running = 1, total;
	if (f) {
		if (fscanf(f, "%lf %lf %lf %d/%d", &l1, &l5, &l15, &running, &total) != 5)
			running = 1;
		fclose(f);
	}
	long cpus = sysconf(_SC_NPROCESSORS_ONLN);
	return (double)(running > 1 ? running - 1 : 0) / (double)(cpus > 0 ? cpus : 1);
}
