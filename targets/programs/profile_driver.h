/* kcc profile driver: fill the inputs, call the entry once. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
static void kcc_fill(void *p, long long n, int kind, int size, long long lo,
                     long long hi)
{
	unsigned char *b = (unsigned char *)p; /* a cast: .cu drivers are C++ */
	for (long long i = 0; i < n; i++) {
		unsigned long long h = (unsigned long long)i * 2654435761ull + 12345;
		if (kind == 0) { float v = (float)(h % 2001) / 1000.0f - 1.0f; memcpy(b + i * 4, &v, 4); }
		else if (kind == 1) { double v = (double)(h % 2001) / 1000.0 - 1.0; memcpy(b + i * 8, &v, 8); }
		else if (kind == 2) { long long v = lo + (long long)(h % (unsigned long long)(hi > lo ? hi - lo : 1));
			memcpy(b + i * size, &v, (size_t)size); }
		else memset(b + i * size, 0, (size_t)size);
	}
}
