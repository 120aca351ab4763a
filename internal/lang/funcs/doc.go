// Package funcs provides strata's built-in function library: the functions
// that Terraform 1.11 makes available in configuration expressions, exposed
// as cty functions ready to be placed in an hcl.EvalContext.
//
// The single entry point is Functions, which builds the table for one module:
//
//	ctx := &hcl.EvalContext{
//		Variables: vars,
//		Functions: funcs.Functions(moduleDir, false),
//	}
//
// Where go-cty's stdlib already implements a function with the behaviour
// Terraform documents, the table uses it directly. The remaining functions
// (filesystem, encoding, hashing, network, templates, type conversions,
// sensitivity and so on) are implemented in this package, grouped by family
// into files named after Terraform's documentation categories.
//
// Every function is also registered under its namespaced alias, e.g.
// "core::abs", as Terraform 1.8 and later do.
//
// Relative paths given to the filesystem functions (file, fileexists,
// fileset, filebase64, templatefile, the file hash functions and abspath)
// resolve against the directory passed to Functions (a Dir: the module
// directory inside the working directory). A leading "~" is expanded
// to the user's home directory first, as Terraform does.
//
// Sensitive values are represented with the cty mark SensitiveMark and
// ephemeral values with EphemeralMark. Functions that do not deal with marks
// explicitly propagate the marks of their arguments to their results through
// go-cty's usual rules.
//
// Impure functions (uuid, timestamp, bcrypt) and plantimestamp return unknown
// values of their result type when Functions is called with pure set to true,
// which is what a validate walk needs.
//
// The special functions try and can come from hcl's ext/tryfunc package,
// and templatestring receives its template argument as an expression closure
// (hcl's ext/customdecode), so all three only work fully when called through
// HCL expression evaluation rather than via function.Function.Call.
package funcs
