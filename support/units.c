/*
 * units.c — quantities as users type them on the command line: a duration
 * in seconds with an optional unit ("90", "90s", "10m", "1.5h"), shared by
 * --budget=time:T and --timeout=T.
 */
#include "support.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>

bool parse_seconds(const char *s, double *v)
{
	char *end;
	errno = 0;
	double x = strtod(s, &end);
	if (errno || end == s || !isfinite(x) || x < 0)
		return false;
	double unit = 1;
	if (*end == 'm')
		unit = 60, end++;
	else if (*end == 'h')
		unit = 3600, end++;
	else if (*end == 's')
		end++;
	*v = x * unit;
	return *end == 0;
}
