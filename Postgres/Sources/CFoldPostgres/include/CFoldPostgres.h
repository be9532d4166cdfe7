// The `fold` PostgreSQL module (fold.c and the .c files beside it). PostgreSQL finds its functions
// by name (dlsym); nothing includes this header, and it must not include PostgreSQL's headers
// (Swift's importer reads it).
#ifndef CFOLD_POSTGRES_H
#define CFOLD_POSTGRES_H
#endif
