/* a row-scaled copy through pointers to rows. */
// EXPECT: #pragma kcc entry scale_rows
// EXPECT: #pragma kcc param in in f32[rows*cols]
// EXPECT: #pragma kcc param out out f32[rows*cols]
// EXPECT: #pragma kcc param w in f32[rows]
// EXPECT: #pragma kcc flops rows*cols
void scale_rows(int rows, int cols, const float (*in)[cols], float (*out)[cols], const float *w)
{
	for (int r = 0; r < rows; r++)
		for (int c = 0; c < cols; c++)
			out[r][c] = w[r] * in[r][c];
}
