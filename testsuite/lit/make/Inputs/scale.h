/* scale.h — a header the make test's kernel includes and then drops. */
#define SCALE 2.0f
