// The test build's extra SQL-callable function (fold_test_hooks.c); nothing for Swift to import.
