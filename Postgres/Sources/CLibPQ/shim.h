// libpq, PostgreSQL's client library (Debian: libpq-dev), for the tests and the benchmark.
#include <libpq-fe.h>
