/*
 * status.c — a failure's category, for the exit code. Functions below the
 * driver return 0 / -1 and say what went wrong through the diagnostics
 * sink; where the category of a failure is known at its source (a program
 * that cannot be started is a missing tool, not the user's mistake), the
 * source raises it here, and the driver maps it to an exit code through
 * one table (driver/exit.c). Like errno, it holds the latest raise until
 * status_take() reads it; unlike errno, threads share it (the LLM's cmd:
 * workers start programs too).
 */
#include "support.h"

static int raised; /* a Status; ST_OK when none */

void status_raise(Status s)
{
	__atomic_store_n(&raised, (int)s, __ATOMIC_RELAXED);
}

Status status_take(Status otherwise)
{
	Status s = (Status)__atomic_exchange_n(&raised, (int)ST_OK, __ATOMIC_RELAXED);
	return s != ST_OK ? s : otherwise;
}

const char *status_name(Status s)
{
	static const char *const names[] = {"ok", "user", "tool", "budget", "interrupt"};
	return (unsigned)s < ARRAY_LEN(names) ? names[s] : "?";
}
