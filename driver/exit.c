/*
 * exit.c — kcc's exit codes (DESIGN.md section 3) in one table: the status
 * category a failure below the driver raised (support/status.c) maps to
 * its code here, and --help and the man page print their meaning from it.
 */
#include "driver.h"

#include <stdio.h>
#include <string.h>

#define ST_NONE (-1) /* a code the driver decides itself (2), not a category */

static const struct {
	int code;
	int st; /* the Status that maps to code, or ST_NONE */
	const char *text;
} EXITS[] = {
    {EXIT_OK, ST_OK, "output written"},
    {EXIT_OK, ST_BUDGET, NULL}, /* a budget stopped the search: the best so far is written */
    {EXIT_USER, ST_USER, "bad input or options (the file, its spec, a flag; for --check, "
     "a candidate that is not equivalent)"},
    {EXIT_NO_GAIN, ST_NONE, "no verified gain (with -Werror-no-gain)"},
    {EXIT_TOOL, ST_TOOL, "a tool failed or is missing (compiler, GPU, LLM provider, runner)"},
    {EXIT_INTERRUPT, ST_INTERRUPT, "interrupted by Ctrl-C, after writing the best verified "
     "version so far and saying how to resume"},
};

int driver_exit(Status s)
{
	for (size_t i = 0; i < ARRAY_LEN(EXITS); i++)
		if (EXITS[i].st == (int)s)
			return EXITS[i].code;
	return EXIT_TOOL;
}

void exit_print_help(void)
{
	int col = printf("\nExit status:") - 1;
	for (size_t i = 0; i < ARRAY_LEN(EXITS); i++) {
		if (!EXITS[i].text)
			continue;
		char item[192];
		snprintf(item, sizeof item, " %d %s%s", EXITS[i].code, EXITS[i].text,
		                 i + 1 < ARRAY_LEN(EXITS) ? "," : ".");
		/* words wrap at 78 columns */
		for (const char *w = item; *w;) {
			const char *e = strchr(w + 1, ' ');
			int len = e ? (int)(e - w) : (int)strlen(w);
			if (col + len > 78) {
				putchar('\n');
				w++, len--, col = 0;
			}
			col += printf("%.*s", len, w);
			w += len;
		}
	}
	putchar('\n');
}

void exit_print_man(void (*roff)(const char *))
{
	printf(".SH EXIT STATUS\n");
	for (size_t i = 0; i < ARRAY_LEN(EXITS); i++) {
		if (!EXITS[i].text)
			continue;
		printf(".TP\n%d\n%c", EXITS[i].code, EXITS[i].text[0] - 'a' + 'A');
		roff(EXITS[i].text + 1);
		printf(".\n");
	}
}
