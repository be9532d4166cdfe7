// Snowball's C library (libstemmer; Debian: libstemmer-dev, Snowball 2.2.0). Only FoldSnowball
// imports it: the Fold product never links a stemmer.
#include <libstemmer.h>
