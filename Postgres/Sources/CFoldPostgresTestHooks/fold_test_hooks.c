// The test build of the module (product FoldPostgresTestModule, libFoldPostgresTestModule.so):
// the whole module (CFoldPostgres, with its PG_MODULE_MAGIC) plus fold_test_trap, which the
// installed fold.so does not have. Scripts/test.sh builds it and copies it where the test
// server can read it; ServerSafetyTests makes SQL functions of it by that path, in a database
// without the extension, so no backend maps both it and fold.so.
#include "postgres.h"

#include "fmgr.h"

#include "fold_internal.h"

PG_FUNCTION_INFO_V1(fold_test_trap);

/// A trap inside Swift (foldpg_test_trap), which must become an ERROR raised from this frame,
/// leave the backend alive and disable Fold in the session.
Datum
fold_test_trap(PG_FUNCTION_ARGS)
{
	IN_SWIFT(foldpg_test_trap());
	PG_RETURN_VOID();
}
