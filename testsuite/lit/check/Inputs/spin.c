/* A kernel that spins about n * 0.1 s before doing its work: its check
 * shape runs for seconds, so a small --timeout catches its calibration. */
#pragma kcc entry spin
#pragma kcc param x in f32[n]
#pragma kcc param y out f32[n]
#pragma kcc shape check n=30
#pragma kcc shape bench n=30

void spin(const float *x, float *y, int n)
{
	for (volatile long i = 0; i < (long)n * 30000000L; i++)
		;
	for (int i = 0; i < n; i++)
		y[i] = 2.0f * x[i];
}
