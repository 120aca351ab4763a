// Package moduletest runs a module's test files (.tftest.hcl and
// .tftest.json) as `strata test` does, compatibly with `terraform test`:
// each file's run blocks plan or apply the module (or a helper module)
// with their variables, check their assertions, and at the end of the file
// everything the runs created is destroyed, in reverse order.
//
// The package knows nothing of the command line: the command gives a
// Runner the engine factory, the variables from the command line and a
// Reporter that renders progress and results.
package moduletest
