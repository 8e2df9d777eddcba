// Counts its inclusions: no include guard (the #else keeps the
// preprocessor from taking SEEN_ONCE for one), so a second #include reads it
// again and defines SEEN_TWICE.
#ifndef SEEN_ONCE
#define SEEN_ONCE
#else
#define SEEN_TWICE
#endif
